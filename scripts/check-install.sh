#!/usr/bin/env bash
# Checks that assbin installs and is used the way C++ users expect:
#   1. static  a static Release build is installed into a temporary prefix (the manual page read by
#              man, the bash completion defined); tests/consumer is built
#              against it with find_package and run, then built with pkg-config and run; the prefix
#              is moved and the consumer built again (the CMake package names no absolute path)
#   2. shared  the same with BUILD_SHARED_LIBS=ON, and the installed program run from the prefix
#              (its RUNPATH finds the libraries)
#   3. deb     cpack -G DEB in the static build (the runtime package ships the page and the completion);
#              the packages installed with dpkg, `assbin --version`
#              checked against project()'s version, every library the program needs owned by a
#              package its Depends names, the consumer built against /usr, `import assbin` with
#              /usr/bin/python3 (python3-assbin); every package purged
# Steps 1 and 2 also import the installed Python module (when it is built) with /usr/bin/python3.
#
#   scripts/check-install.sh [--build-dir DIR] [--static-only] [--clean-root]
#     --build-dir DIR  the static build to install and package (scripts/test.sh passes its Release
#                      build; a folder without a CMakeCache.txt is configured); default build-install-static
#     --static-only    step 1 only
#     --clean-root     also install the runtime package into a minimal Debian 12 made by debootstrap
#                      and run it there (needs the network and debootstrap; see README)
# Step 3 (and --clean-root) install packages: run as root or with sudo available.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=build-install-static
shared_dir=build-install-shared
static_only=0
clean_root=0
while [ $# -gt 0 ]; do
    case $1 in
    --build-dir) build_dir=${2:?--build-dir needs a folder}; shift 2 ;;
    --static-only) static_only=1; shift ;;
    --clean-root) clean_root=1; shift ;;
    *) echo "usage: scripts/check-install.sh [--build-dir DIR] [--static-only] [--clean-root]" >&2; exit 2 ;;
    esac
done

version=$(sed -n 's/^project(assbin VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$version" ] || { echo "check-install: no version in CMakeLists.txt's project()" >&2; exit 1; }
jobs=$(nproc)
fixture=$PWD/tests/data/assimp-5.2.5/FBX__huesitos.fbx.assbin
as_root=()
[ "$(id -u)" -ne 0 ] && as_root=(sudo)

work=$(mktemp -d /tmp/assbin-check-install.XXXXXX)
installed_packages=()
cleanup() {
    if [ ${#installed_packages[@]} -gt 0 ]; then
        "${as_root[@]}" dpkg --purge "${installed_packages[@]}" >/dev/null || true
    fi
    if [ -d "$work/root" ]; then
        "${as_root[@]}" rm -rf "$work/root"
    fi
    rm -rf "$work"
}
trap cleanup EXIT

step() { echo; echo "== check-install: $* (at ${SECONDS} s)"; }
fail() { echo "check-install: FAILED: $*" >&2; exit 1; }

# Configures a folder that has no cache yet (an existing one keeps its options), then builds the
# libraries and the program.
build_libraries() { # build-dir, then CMake options for a new folder
    local dir=$1
    shift
    if [ ! -f "$dir/CMakeCache.txt" ]; then
        cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_TESTS=OFF \
            -DASSBIN_BUILD_BENCHMARKS=OFF -DASSBIN_WERROR=ON "$@" >/dev/null
    else
        cmake -S . -B "$dir" >/dev/null # regenerated, so that targets added since are known
    fi
    local -a targets=(assbin_cli assbin_man_page)
    [ -d "$dir/python" ] && targets+=(assbin_python) # the Python module, when pybind11 and NumPy were found
    cmake --build "$dir" -j "$jobs" --target "${targets[@]}" >/dev/null
}

# The installed Python module imports with Debian's /usr/bin/python3 (PYTHONPATH given for a prefix
# outside its sys.path) and reads the fixture, from a folder that holds no copy of the package.
check_python() { # folder holding the assbin package, or "" for the interpreter's own sys.path
    local folder=$1 printed
    [ -d "$build_dir/python" ] || { echo "SKIPPED: the Python module (not built: no pybind11 or NumPy)"; return 0; }
    printed=$(cd / && PYTHONPATH=$folder /usr/bin/python3 -c "import assbin, sys
scene = assbin.read(sys.argv[1])
print(assbin.__file__, len(scene.meshes), 'meshes,', scene.meshes[0].positions.shape[0], 'vertices')" "$fixture") ||
        fail "the installed Python module does not import or read (PYTHONPATH=$folder)"
    echo "  python3: $printed"
}

# Builds tests/consumer against an installed prefix with find_package and runs its tests (which
# check what the programs print), then compiles the same sources with pkg-config and checks that
# they print the same.
check_consumer() { # prefix, scratch folder
    local prefix=$1 dir=$2
    cmake -S tests/consumer -B "$dir/cmake" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
        -DASSBIN_CONSUMER_DUMP="$fixture" | grep "assbin $version from"
    cmake --build "$dir/cmake" -j "$jobs" >/dev/null
    (cd "$dir/cmake" && ctest --output-on-failure)
    echo "  read_dump: $("$dir/cmake/read_dump" "$fixture")"
    echo "  convert_dump: $("$dir/cmake/convert_dump" "$fixture")"

    local -a pkg_config=(pkg-config) # /usr: pkg-config's own search path must find the files
    if [ "$prefix" != /usr ]; then
        pkg_config=(env PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name assbin.pc)")" pkg-config)
    fi
    local program module
    for program in read_dump:assbin convert_dump:assbin-converter; do
        module=${program#*:}
        program=${program%:*}
        echo "g++ $program.cpp \$(pkg-config --cflags --libs $module): $("${pkg_config[@]}" --libs "$module")"
        # shellcheck disable=SC2046 # the flags are words
        g++ -std=c++20 -Wall -Wextra -Wpedantic -Werror "tests/consumer/$program.cpp" -o "$dir/$program" \
            $("${pkg_config[@]}" --cflags --libs "$module") \
            -Wl,-rpath,"$("${pkg_config[@]}" --variable=libdir "$module")"
        [ "$("$dir/$program" "$fixture")" = "$("$dir/cmake/$program" "$fixture")" ] ||
            fail "$program built with pkg-config prints something else than built with CMake"
    done
}

# The manual page and the bash completion are where man and bash-completion look under the prefix,
# the page reads with man, and the completion defines assbin's.
check_manual() { # prefix
    local page=$1/share/man/man1/assbin.1.gz completion=$1/share/bash-completion/completions/assbin lines
    [ -f "$page" ] || fail "no manual page at share/man/man1/assbin.1.gz"
    [ -f "$completion" ] || fail "no bash completion at share/bash-completion/completions/assbin"
    local shown # read whole first: grep -q stopping early would fail the pipe under pipefail
    shown=$(MANWIDTH=100 man -l "$page" 2>/dev/null | col -b)
    lines=$(grep -c "" <<<"$shown")
    grep -qx "   assbin convert" <<<"$shown" || fail "man -l share/man/man1/assbin.1.gz shows no 'assbin convert' section"
    [ "$(bash -c 'source "$1" && complete -p assbin' _ "$completion")" = "complete -F _assbin assbin" ] ||
        fail "share/bash-completion/completions/assbin does not define assbin's completion"
    echo "  man -l share/man/man1/assbin.1.gz: $lines lines; bash completion: complete -F _assbin assbin"
}

check_version() { # program
    local printed
    printed=$("$1" --version)
    [ "$printed" = "assbin $version" ] || fail "$1 --version printed '$printed', expected 'assbin $version'"
    echo "$1 --version: $printed"
}

step "1/3 static libraries ($build_dir): install, find_package, pkg-config, relocation"
build_libraries "$build_dir"
grep -q "^BUILD_SHARED_LIBS:BOOL=ON" "$build_dir/CMakeCache.txt" && fail "$build_dir builds shared libraries"
cmake --install "$build_dir" --prefix "$work/static" >/dev/null
find "$work/static" -type f | sed "s|^$work/static/|  |" | sort
check_version "$work/static/bin/assbin"
check_manual "$work/static"
check_consumer "$work/static" "$work/consumer-static"
check_python "$(dirname "$(find "$work/static" -name __init__.py -path '*/assbin/*' | head -n 1)" 2>/dev/null)/.."
mv "$work/static" "$work/moved"
rm -rf "$work/consumer-static/cmake"
cmake -S tests/consumer -B "$work/consumer-static/cmake" -DCMAKE_PREFIX_PATH="$work/moved" \
    -DASSBIN_CONSUMER_DUMP="$fixture" | grep "assbin $version from"
cmake --build "$work/consumer-static/cmake" -j "$jobs" >/dev/null
(cd "$work/consumer-static/cmake" && ctest --output-on-failure)
[ "$static_only" -eq 1 ] && { echo; echo "check-install: static install passed in ${SECONDS} s (--static-only)"; exit 0; }

step "2/3 shared libraries ($shared_dir): install, RUNPATH, find_package, pkg-config"
# Unoptimised (-O0 in place of Release's -O2): what this part checks is the shape of a shared install
# (files, SONAMEs, RUNPATH, find_package, pkg-config, the Python module against the shared libraries),
# and compiling is nearly all of its time.
build_libraries "$shared_dir" -DBUILD_SHARED_LIBS=ON -DCMAKE_CXX_FLAGS_RELEASE="-O0 -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELEASE="-O0 -DNDEBUG"
cmake --install "$shared_dir" --prefix "$work/shared" >/dev/null
for library in "$work"/shared/lib/lib*.so; do
    echo "$(basename "$library"): SONAME $(readelf -d "$library" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')"
done
echo "bin/assbin RUNPATH: $(readelf -d "$work/shared/bin/assbin" | sed -n 's/.*RUNPATH.*\[\(.*\)\]/\1/p')"
check_version "$work/shared/bin/assbin"
check_consumer "$work/shared" "$work/consumer-shared"
check_python "$(dirname "$(find "$work/shared" -name __init__.py -path '*/assbin/*' | head -n 1)" 2>/dev/null)/.."

step "3/3 Debian packages: cpack -G DEB, dpkg -i, assbin --version, Depends, consumer against /usr"
(cd "$build_dir" && cpack -G DEB -B "$work/deb" >/dev/null)
runtime_deb=$(ls "$work"/deb/assbin_"$version"_*.deb)
dev_deb=$(ls "$work"/deb/libassbin-dev_"$version"_*.deb)
python_deb=$(ls "$work"/deb/python3-assbin_"$version"_*.deb 2>/dev/null || true)
[ -d "$build_dir/python" ] && [ -z "$python_deb" ] && fail "the Python module is built, but cpack made no python3-assbin package"
for deb in "$runtime_deb" "$dev_deb" $python_deb; do
    echo "$(basename "$deb"): $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version), Depends: $(dpkg-deb -f "$deb" Depends)"
done
for package in assbin libassbin-dev python3-assbin; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
    if [ -n "$status" ] && [ "$status" != not-installed ] && [ "$status" != config-files ]; then
        fail "package $package is $status on this machine: not touching it (dpkg --purge $package first)"
    fi
done
runtime_files=$(dpkg-deb -c "$runtime_deb" | awk '{ print $NF }')
for shipped in ./usr/share/man/man1/assbin.1.gz ./usr/share/bash-completion/completions/assbin; do
    grep -qxF "$shipped" <<<"$runtime_files" || fail "$(basename "$runtime_deb") does not ship $shipped"
done
echo "$(basename "$runtime_deb") ships usr/share/man/man1/assbin.1.gz and usr/share/bash-completion/completions/assbin"
installed_packages=(assbin)
"${as_root[@]}" dpkg -i "$runtime_deb" >/dev/null
check_version /usr/bin/assbin

# Every library the program loads directly must come from a package the runtime package depends on.
owner_of() { # library path -> package name (merged /usr: dpkg knows one of /lib/... and /usr/lib/...)
    local path candidate
    path=$(readlink -f "$1")
    for candidate in "$1" "$path" "/usr${path#/usr}" "${path#/usr}"; do
        dpkg -S "$candidate" 2>/dev/null | head -n 1 | cut -d: -f1 && return 0
    done
    return 1
}
depends=$(dpkg-deb -f "$runtime_deb" Depends | tr ',|' '\n' | sed 's/(.*//; s/ //g')
for needed in $(readelf -d /usr/bin/assbin | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'); do
    # "libz.so.1 => /lib/.../libz.so.1 (0x...)", or "/lib64/ld-linux-x86-64.so.2 (0x...)" for the loader
    path=$(ldd /usr/bin/assbin | awk -v name="$needed" '$1 == name { print $3 } $1 ~ "/" name "$" { print $1 }')
    [ -n "$path" ] || fail "/usr/bin/assbin needs $needed, which the loader does not find"
    package=$(owner_of "$path") || fail "$path ($needed) belongs to no package"
    grep -qx "$package" <<<"$depends" || fail "$needed comes from $package, which Depends does not name"
    echo "  $needed  $path  $package"
done

installed_packages=(libassbin-dev assbin)
"${as_root[@]}" dpkg -i "$dev_deb" >/dev/null
check_consumer /usr "$work/consumer-deb"
if [ -n "$python_deb" ]; then
    installed_packages=(python3-assbin libassbin-dev assbin)
    "${as_root[@]}" dpkg -i "$python_deb" >/dev/null
    check_python ""
fi
"${as_root[@]}" dpkg --purge "${installed_packages[@]}" >/dev/null
installed_packages=()
[ ! -e /usr/bin/assbin ] || fail "/usr/bin/assbin is still there after dpkg --purge"
(cd / && /usr/bin/python3 -c "import assbin" 2>/dev/null) && fail "assbin still imports after dpkg --purge"
echo "every package purged"

if [ "$clean_root" -eq 1 ]; then
    step "--clean-root: the runtime package in a minimal Debian 12 (debootstrap --variant=minbase)"
    command -v debootstrap >/dev/null || fail "--clean-root needs debootstrap (apt-get install debootstrap)"
    start=$SECONDS
    "${as_root[@]}" debootstrap --variant=minbase bookworm "$work/root" http://deb.debian.org/debian >/dev/null
    "${as_root[@]}" cp "$runtime_deb" "$work/root/tmp/"
    # apt resolves the package's Depends from the archive, and only those (no recommends).
    "${as_root[@]}" chroot "$work/root" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends /tmp/$(basename "$runtime_deb")" >"$work/apt.log" 2>&1 ||
        { cat "$work/apt.log"; fail "apt-get install of the runtime package in the clean root"; }
    echo "apt-get installed: $(sed -n 's/^Setting up \([^ :]*\).*/\1/p' "$work/apt.log" | tr '\n' ' ')"
    printed=$("${as_root[@]}" chroot "$work/root" assbin --version)
    [ "$printed" = "assbin $version" ] || fail "assbin --version in the clean root printed '$printed'"
    echo "clean root: assbin --version: $printed ($((SECONDS - start)) s)"
fi

echo
echo "check-install: all passed in ${SECONDS} s"
