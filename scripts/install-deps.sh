#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need (skipped when all are present).
# Extra package names given as arguments are installed too (scripts/fuzz.sh adds clang's).
set -euo pipefail

# dpkg-dev and file: CPack's .deb generator computes the runtime package's Depends with them.
# The Python packages belong to Debian's /usr/bin/python3, the interpreter the module is built for
# (mypy: its stubtest holds the package's type stubs to the module as built).
packages=(cmake g++ make pkg-config zlib1g-dev libdeflate-dev libboost-program-options-dev
          libboost-test-dev libeigen3-dev libstb-dev libmeshoptimizer-dev libsquish-dev libpng-dev libxxhash-dev nlohmann-json3-dev
          libopengl-dev libegl-dev libegl-mesa0 libgl1-mesa-dri
          python3-dev pybind11-dev python3-numpy python3-pytest python3-distributed mypy
          dpkg-dev file
          assimp-utils # Assimp's own `assimp dump`: an oracle in tests only (the glTF round trips), never linked
          blender # a real client of the glTF output, in tests only (corpus_blender: 166 MB of packages)
          man-db bsdextrautils "$@") # man and col: the manual page test reads the page as man shows it

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

as_root=()
[ "$(id -u)" -ne 0 ] && as_root=(sudo)
echo "installing: ${missing[*]}" >&2
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
