// The reference for the converter's tangents: the original MikkTSpace (genTangSpaceDefault),
// compiled to WebAssembly in the npm package `mikktspace` (pinned in package.json), run over
// triangles the converter wrote. Developer and CI check only; the product never runs Node.
//
// Usage: node mikktspace_reference.js REQUEST RESPONSE
// REQUEST  (little-endian): "MKTQ", uint32 mesh count, then per mesh: uint32 corner count (a
//          multiple of 3) and per corner 8 float32: position xyz, normal xyz, uv.
// RESPONSE: "MKTR", uint32 mesh count, then per mesh and corner 4 float32: tangent xyz and the
//          bitangent sign (+1 or -1), as genTangSpaceDefault gives them.
'use strict';
const fs = require('fs');

// A panic inside the WebAssembly module leaves it unusable; a fresh instance is loaded after one.
function loadReference() {
    for (const key of Object.keys(require.cache)) {
        if (key.includes(`${require('path').sep}mikktspace${require('path').sep}`)) delete require.cache[key];
    }
    return require('mikktspace').generateTangents;
}
let generateTangents = loadReference();

function main(requestPath, responsePath) {
    const request = fs.readFileSync(requestPath);
    if (request.length < 8 || request.toString('latin1', 0, 4) !== 'MKTQ') throw new Error(`${requestPath}: not a request`);
    const meshCount = request.readUInt32LE(4);
    const parts = [Buffer.from('MKTR'), Buffer.alloc(4)];
    parts[1].writeUInt32LE(meshCount);
    let at = 8;
    const failures = [];
    for (let m = 0; m < meshCount; ++m) {
        const corners = request.readUInt32LE(at);
        at += 4;
        if (corners % 3 !== 0 || at + corners * 32 > request.length) throw new Error(`mesh ${m}: bad corner count ${corners}`);
        const floats = new Float32Array(request.buffer.slice(request.byteOffset + at, request.byteOffset + at + corners * 32));
        at += corners * 32;
        const positions = new Float32Array(corners * 3), normals = new Float32Array(corners * 3), uvs = new Float32Array(corners * 2);
        for (let c = 0; c < corners; ++c) {
            positions.set(floats.subarray(8 * c, 8 * c + 3), 3 * c);
            normals.set(floats.subarray(8 * c + 3, 8 * c + 6), 3 * c);
            uvs.set(floats.subarray(8 * c + 6, 8 * c + 8), 2 * c);
        }
        let tangents;
        try {
            tangents = corners > 0 ? generateTangents(positions, normals, uvs) : new Float32Array(0);
        } catch (error) {
            // The reference gives up on this mesh (the Rust port of mikktspace.c panics, for one, where
            // a vertex has no usable triangle); its answer is NaN, which the comparison counts apart.
            failures.push(`mesh ${m} (${corners} corners): ${error.message}`);
            tangents = new Float32Array(corners * 4).fill(NaN);
            generateTangents = loadReference();
        }
        parts.push(Buffer.from(tangents.buffer, tangents.byteOffset, corners * 16));
    }
    fs.writeFileSync(responsePath, Buffer.concat(parts));
    if (failures.length > 0) process.stderr.write(`the reference failed on ${failures.length} of ${meshCount} meshes, first ${failures[0]}\n`);
}

if (process.argv.length !== 4) {
    process.stderr.write('usage: node mikktspace_reference.js REQUEST RESPONSE\n');
    process.exit(2);
}
main(process.argv[2], process.argv[3]);
