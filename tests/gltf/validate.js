// Khronos's glTF-Validator over glTF files: `node validate.js FILE...` prints one JSON line per file
// ({"file", "errors", "warnings", "infos", "messages": [{code, severity, pointer, message}]}, the
// errors and warnings listed) and exits 0; a file the validator cannot read is a line with "failure".
// A .gltf's .bin and images are read from beside it (externalResourceFunction).
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

async function validate(file) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        maxIssues: 0,
        externalResourceFunction: (uri) =>
            new Promise((resolve, reject) => {
                fs.readFile(path.join(path.dirname(file), decodeURIComponent(uri)), (error, data) =>
                    error ? reject(error.toString()) : resolve(new Uint8Array(data)));
            }),
    });
    const issues = report.issues;
    return {
        file,
        errors: issues.numErrors,
        warnings: issues.numWarnings,
        infos: issues.numInfos,
        messages: issues.messages.filter((m) => m.severity <= 1)
            .map((m) => ({code: m.code, severity: m.severity, pointer: m.pointer, message: m.message})),
    };
}

(async () => {
    for (const file of process.argv.slice(2)) {
        try {
            console.log(JSON.stringify(await validate(file)));
        } catch (error) {
            console.log(JSON.stringify({file, failure: String(error)}));
        }
    }
})();
