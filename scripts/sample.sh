#!/usr/bin/env bash
# Set-up and main job: installs what the build needs, builds build/bin/assbin, converts a dump bundled
# in the repository (a skinned, animated FBX import written by Assimp 5.2.5) to an AEM model in
# out/ (a temporary folder when out/ cannot be written), prints what the model holds and renders it
# posed to out/huesitos.png.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_TESTS=OFF >/dev/null
cmake --build build --target assbin_cli -j "$(nproc)"

sample=tests/data/assimp-5.2.5/FBX__huesitos.fbx.assbin
out=out
mkdir -p "$out" 2>/dev/null && [ -w "$out" ] || out=$(mktemp -d)
echo
echo "\$ build/bin/assbin convert $sample -o $out/huesitos.aem"
build/bin/assbin convert "$sample" -o "$out/huesitos.aem"
echo
echo "\$ build/bin/assbin aem-info $out/huesitos.aem"
build/bin/assbin aem-info "$out/huesitos.aem"
echo
echo "\$ build/bin/assbin render $out/huesitos.aem -o $out/huesitos.png --anim 0 --time 1 --bones"
build/bin/assbin render "$out/huesitos.aem" -o "$out/huesitos.png" --size 480x360 --anim 0 --time 1 --bones &&
    echo "wrote $out/huesitos.png (the model posed 1 s into its animation, skeleton drawn over it)"
