// A second MikkTSpace for the converter's glTF tangents: glTF-Transform's tangents() (npm
// @gltf-transform/functions with the original MikkTSpace in npm `mikktspace`, pinned in
// package.json), the usual reference for glTF's TANGENT, run on the very file the converter wrote.
// `node tangents.js FILE...` prints one JSON line per file: {"file", "primitives", "corners",
// "w_differ", "over_1_degree", "max_degrees"} over every triangle primitive that carries TANGENT
// (quantized files dequantized first; the reference reads the UV set of the material's normal
// texture, else TEXCOORD_0, as the converter does), each corner's TANGENT held to the reference's; a file it cannot read is a line with "failure". Exits 0.
'use strict';
const { Logger, NodeIO } = require('@gltf-transform/core');
const { ALL_EXTENSIONS } = require('@gltf-transform/extensions');
const { dequantize, tangents, unweld } = require('@gltf-transform/functions');
const mikktspace = require('mikktspace');

const silent = new Logger(Logger.Verbosity.SILENT); // stdout is the JSON lines alone
const io = new NodeIO().setLogger(silent).registerExtensions(ALL_EXTENSIONS);

function degreesBetween(a, b) {
    const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    const la = Math.hypot(a[0], a[1], a[2]), lb = Math.hypot(b[0], b[1], b[2]);
    if (!(la > 0 && lb > 0)) return 0;
    return (Math.acos(Math.max(-1, Math.min(1, dot / (la * lb)))) * 180) / Math.PI;
}

async function check(file) {
    const doc = await io.read(file);
    doc.setLogger(silent);
    await doc.transform(dequantize());
    // Ours, corner by corner (in index order, the order unweld() gives the reference's vertices).
    const held = [];
    for (const mesh of doc.getRoot().listMeshes()) {
        for (const primitive of mesh.listPrimitives()) {
            const tangent = primitive.getAttribute('TANGENT');
            if (primitive.getMode() !== 4 || !tangent) continue;
            const indices = primitive.getIndices();
            const count = indices ? indices.getCount() : tangent.getCount();
            const ours = [];
            for (let c = 0; c < count; ++c) ours.push(tangent.getElement(indices ? indices.getScalar(c) : c, []));
            held.push({ primitive, ours });
        }
    }
    if (held.length > 0) await doc.transform(unweld(), tangents({ generateTangents: mikktspace.generateTangents, overwrite: true }));
    const result = { file, primitives: held.length, corners: 0, w_differ: 0, over_1_degree: 0, max_degrees: 0 };
    for (const { primitive, ours } of held) {
        const reference = primitive.getAttribute('TANGENT');
        for (let c = 0; c < ours.length; ++c) {
            const theirs = reference.getElement(c, []);
            const degrees = degreesBetween(ours[c], theirs);
            result.corners += 1;
            result.w_differ += Math.sign(ours[c][3]) !== Math.sign(theirs[3]) ? 1 : 0;
            result.over_1_degree += degrees > 1 ? 1 : 0;
            result.max_degrees = Math.max(result.max_degrees, degrees);
        }
    }
    return result;
}

(async () => {
    for (const file of process.argv.slice(2)) {
        try {
            console.log(JSON.stringify(await check(file)));
        } catch (error) {
            console.log(JSON.stringify({ file, failure: String(error) }));
        }
    }
})();
