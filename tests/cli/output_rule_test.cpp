// The output rule every writer follows (common/output_target.hpp), verb by verb as a user meets it:
// an output that is one of the run's inputs, however it is named (a symlink, a hard link, "./x"),
// is refused before anything is read or written, and the input keeps its bytes; an existing FIFO or
// character device is written into as a stream and is still one afterwards. And --skip-existing
// converts again when a texture the model names was deleted or changed.
#include "cli_helpers.hpp"
#include "support/fixtures.hpp"
#include "support/skip.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

using assbin_test::fixture_path;
using assbin_test::run_cli;
using assbin_test::TempDir;

using assbin_cli_test::contains;
std::string slurp(const fs::path& path) {
    return assbin_cli_test::read_text(path);
}

mode_t mode_of(const fs::path& path) {
    struct stat info {};
    return ::lstat(path.c_str(), &info) == 0 ? info.st_mode : 0;
}

// A writer: its arguments, given the input and the output it is to write.
struct Writer {
    std::string name;
    std::function<std::vector<std::string>(const std::string& input, const std::string& output)> args;
    bool needs_gl = false;   // draws a picture before it writes (render)
    std::string first_bytes; // what its output starts with
};

std::vector<Writer> writers() {
    return {
        {"convert",
         [](auto in, auto out) {
             return std::vector<std::string>{"convert", in, "-o", out};
         },
         false, "AEM"},
        {"render -o",
         [](auto in, auto out) {
             return std::vector<std::string>{"render", in, "-o", out, "--size", "64x64"};
         },
         true, "\x89PNG"},
        {"render --sheet",
         [](auto in, auto out) {
             return std::vector<std::string>{"render", in, "--sheet", out, "--size", "64x64"};
         },
         true, "\x89PNG"},
        {"cmp --html",
         [](auto in, auto out) {
             return std::vector<std::string>{"cmp", in, in, "--html", out};
         },
         false, "<!DOCTYPE"},
        {"dump",
         [](auto in, auto out) {
             return std::vector<std::string>{"dump", in, out};
         },
         false, "ASSIMP"},
    };
}

// A copy of a small skinned dump, the input of every writer here.
fs::path input_in(const TempDir& temp) {
    const fs::path input = temp.path() / "in.assbin";
    fs::copy_file(fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin"), input);
    return input;
}

// Reads a FIFO while a command writes into it: the FIFO is opened for reading and writing (so the
// writer's open does not wait, and a writer that never comes leaves nothing blocked), and drained
// until the command has ended.
class FifoReader {
  public:
    explicit FifoReader(const fs::path& fifo) : fd_(::open(fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC)) {
        BOOST_TEST_REQUIRE(fd_ >= 0);
        thread_ = std::thread([this] {
            char buffer[65536];
            for (;;) {
                pollfd poll_fd{fd_, POLLIN, 0};
                ::poll(&poll_fd, 1, 50);
                const ssize_t got = ::read(fd_, buffer, sizeof buffer);
                if (got > 0) {
                    bytes_.append(buffer, static_cast<size_t>(got));
                    continue;
                }
                if (done_) return;
            }
        });
    }
    ~FifoReader() {
        if (thread_.joinable()) finish();
        ::close(fd_);
    }
    // The bytes written, once the writer has ended.
    const std::string& finish() {
        done_ = true;
        thread_.join();
        return bytes_;
    }

  private:
    int fd_;
    std::atomic<bool> done_{false};
    std::string bytes_;
    std::thread thread_;
};

bool can_draw() {
    static const bool drawn = [] {
        const TempDir temp;
        const fs::path input = input_in(temp);
        return run_cli(
                   {"render", input.string(), "-o", (temp.path() / "probe.png").string(), "--size", "16x16"})
                   .exit_code == 0;
    }();
    return drawn;
}

} // namespace

BOOST_AUTO_TEST_SUITE(output_rule)

BOOST_AUTO_TEST_CASE(every_writer_refuses_its_input_as_output_by_any_name) {
    for (const Writer& writer : writers()) {
        const TempDir temp;
        const fs::path input = input_in(temp);
        const std::string before = slurp(input);
        fs::create_symlink(input, temp.path() / "link.assbin");
        fs::create_hard_link(input, temp.path() / "hard.assbin");
        fs::create_directory(temp.path() / "sub");
        const std::vector<std::string> names = {(temp.path() / "link.assbin").string(),
                                                (temp.path() / "hard.assbin").string(),
                                                (temp.path() / "sub" / ".." / "in.assbin").string()};
        for (const std::string& output : names) {
            BOOST_TEST_CONTEXT(writer.name << " -> " << output) {
                const auto result = run_cli(writer.args(input.string(), output));
                BOOST_TEST(result.exit_code == 3); // an output that cannot be written
                BOOST_TEST(contains(result.err, output + ": is the input "));
                BOOST_TEST(contains(result.err, "(the same file): an output never replaces an input"));
                BOOST_TEST(slurp(input) == before);
                BOOST_TEST(S_ISREG(mode_of(temp.path() / "hard.assbin")));
                BOOST_TEST(S_ISLNK(mode_of(temp.path() / "link.assbin"))); // the link itself untouched
            }
        }
        // Nothing else was written beside them (no temporary left, no output).
        BOOST_TEST(std::distance(fs::directory_iterator(temp.path()), fs::directory_iterator()) == 4);
    }
}

BOOST_AUTO_TEST_CASE(dump_of_a_folder_refuses_to_write_over_its_own_files) {
    const TempDir temp;
    const fs::path folder = temp.path() / "dumps";
    fs::create_directory(folder);
    fs::copy_file(fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin"), folder / "a.assbin");
    const std::string before = slurp(folder / "a.assbin");
    const auto result = run_cli({"dump", folder.string(), folder.string()});
    BOOST_TEST(result.exit_code == 3); // refused before anything is read: the output cannot be written there
    BOOST_TEST(
        contains(result.err, "is IN itself: each dump would replace itself; write into another folder"),
        result.err);
    BOOST_TEST(slurp(folder / "a.assbin") == before);
}

BOOST_AUTO_TEST_CASE(every_writer_streams_into_a_fifo_and_leaves_it_one) {
    for (const Writer& writer : writers()) {
        BOOST_TEST_CONTEXT(writer.name) {
            if (writer.needs_gl && !can_draw()) {
                BOOST_TEST_MESSAGE("render cannot draw here (no EGL context): "
                                   << writer.name << " checked by the render tests");
                continue;
            }
            const TempDir temp;
            const fs::path input = input_in(temp);
            const std::string before = slurp(input);
            const fs::path fifo = temp.path() / "out.fifo";
            BOOST_TEST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
            FifoReader reader(fifo);
            const auto result = run_cli(writer.args(input.string(), fifo.string()));
            const std::string& bytes = reader.finish();
            BOOST_TEST(result.exit_code == 0, result.err);
            BOOST_TEST(bytes.starts_with(writer.first_bytes));
            BOOST_TEST(S_ISFIFO(mode_of(fifo)));
            BOOST_TEST(slurp(input) == before);
            BOOST_TEST(std::distance(fs::directory_iterator(temp.path()), fs::directory_iterator()) == 2);
        }
    }
}

BOOST_AUTO_TEST_CASE(convert_to_dev_null_times_a_conversion_and_leaves_dev_null_a_device) {
    // A dump with an embedded texture: its texture file has nowhere to go, and says so.
    const auto result = run_cli(
        {"convert", fixture_path("assimp-5.2.5/FBX__box_orphant_embedded_texture.fbx.assbin").string(), "-o",
         "/dev/null"});
    BOOST_TEST(result.exit_code == 0, result.err);
    BOOST_TEST(contains(result.out, "-> /dev/null: "));
    BOOST_TEST(
        contains(result.err, "1 texture file is not written: the model goes into /dev/null, a stream"));
    BOOST_TEST(S_ISCHR(mode_of("/dev/null")));
    BOOST_TEST(!fs::exists("/dev/null_0.png"));
}

BOOST_AUTO_TEST_CASE(every_writer_writes_into_a_character_device_without_replacing_it,
                     *assbin_test::may_skip()) {
    if (::geteuid() != 0) assbin_test::skip_check("making a character device (mknod) needs root");
    for (const Writer& writer : writers()) {
        BOOST_TEST_CONTEXT(writer.name) {
            if (writer.needs_gl && !can_draw()) continue;
            const TempDir temp;
            const fs::path input = input_in(temp);
            const fs::path device = temp.path() / "null";
            if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
                assbin_test::skip_check("mknod is not allowed here (" + std::string(std::strerror(errno)) +
                                        ")");
            const auto result = run_cli(writer.args(input.string(), device.string()));
            BOOST_TEST(result.exit_code == 0, result.err);
            BOOST_TEST(S_ISCHR(mode_of(device)));
            BOOST_TEST(std::distance(fs::directory_iterator(temp.path()), fs::directory_iterator()) == 2);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_folder_as_output_is_refused_naming_its_kind) {
    const TempDir temp;
    const fs::path input = input_in(temp);
    fs::create_directory(temp.path() / "out.aem");
    const auto result = run_cli({"convert", input.string(), "-o", (temp.path() / "out.aem").string()});
    BOOST_TEST(result.exit_code == 3);
    BOOST_TEST(contains(result.err, "out.aem: is a folder, not a file"));
}

BOOST_AUTO_TEST_CASE(skip_existing_converts_again_when_a_texture_is_deleted_or_changed) {
    const TempDir temp;
    const fs::path input = temp.path() / "box.fbx.assbin";
    fs::copy_file(fixture_path("assimp-5.2.5/FBX__box_orphant_embedded_texture.fbx.assbin"), input);
    const auto first = run_cli({"convert", input.string(), "--skip-existing"});
    BOOST_TEST_REQUIRE(first.exit_code == 0, first.err);
    std::vector<fs::path> textures;
    for (const auto& entry : fs::directory_iterator(temp.path()))
        if (entry.path().extension() == ".png") textures.push_back(entry.path());
    BOOST_TEST_REQUIRE(textures.size() == 1u);
    const std::string texture_bytes = slurp(textures.front());
    BOOST_TEST(contains(run_cli({"convert", input.string(), "--skip-existing"}).out, "up to date, skipped"));

    fs::remove(textures.front());
    const auto after_delete = run_cli({"convert", input.string(), "--skip-existing"});
    BOOST_TEST(after_delete.exit_code == 0);
    BOOST_TEST(!contains(after_delete.out, "up to date"));
    BOOST_TEST(slurp(textures.front()) == texture_bytes); // written again

    std::ofstream(textures.front(), std::ios::binary | std::ios::app) << "x"; // its bytes changed
    const auto after_change = run_cli({"convert", input.string(), "--skip-existing"});
    BOOST_TEST(!contains(after_change.out, "up to date"));
    BOOST_TEST(slurp(textures.front()) == texture_bytes);
    BOOST_TEST(contains(run_cli({"convert", input.string(), "--skip-existing"}).out, "up to date, skipped"));
}

// --skip-existing keys the images a conversion looked for: a texture that was missing and now lies
// beside the dump, one edited in place, or one removed makes the output stale; another file in the
// folder does not. Before, only the dump, the options and the files written were keyed, and each of
// these left a stale model "up to date". Both readers of images: glTF and the 2025 layout.
BOOST_AUTO_TEST_CASE(skip_existing_keys_the_images_looked_for_found_or_not) {
    for (const std::vector<std::string>& format :
         {std::vector<std::string>{"--format", "glb"}, std::vector<std::string>{"--layout", "2025"}}) {
        const TempDir temp;
        const fs::path input = temp.path() / "cube.assbin", texture = temp.path() / "TEST.PNG";
        fs::copy_file(fixture_path("assimp-5.2.5/3DS__cube_with_diffuse_texture.3DS.assbin"), input);
        std::vector<std::string> args{"convert", input.string(), "--skip-existing"};
        args.insert(args.end(), format.begin(), format.end());
        const auto converted = [&](const char* when) {
            const auto run = run_cli(args);
            BOOST_TEST(run.exit_code == 0, run.err);
            const bool skipped = contains(run.out, "up to date, skipped");
            BOOST_TEST_MESSAGE(format.back() << " " << when << ": " << (skipped ? "skipped" : "converted"));
            return !skipped;
        };
        BOOST_TEST(converted("first, the texture missing"));
        BOOST_TEST(!converted("again"));
        std::ofstream(temp.path() / "unrelated.png") << "x";
        BOOST_TEST(!converted("another file added"));
        fs::copy_file(fixture_path("textures/3DS/test.png"), texture);
        BOOST_TEST(converted("the missing texture added"), format.back());
        BOOST_TEST(!converted("again"));
        std::ofstream(texture, std::ios::binary | std::ios::app) << "x"; // edited in place
        BOOST_TEST(converted("the texture edited"), format.back());
        BOOST_TEST(!converted("again"));
        fs::remove(texture);
        BOOST_TEST(converted("the texture removed"), format.back());
        BOOST_TEST(!converted("again"));
    }
}

// The record is appended only to a regular file of records: never through a symlink (to an input,
// to the standard output), into a FIFO, or into a file of other content under its name. The output
// is then written, not recorded, with a warning, and converted again next time.
BOOST_AUTO_TEST_CASE(the_skip_existing_record_is_never_written_through_a_link_or_into_another_file) {
    const TempDir temp;
    const fs::path input = temp.path() / "d.assbin", record = temp.path() / ".assbin-convert.log";
    fs::copy_file(fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin"), input);
    const std::string dump = slurp(input);
    for (const std::string& kind : std::vector<std::string>{"link to the dump", "hard link to the dump", "fifo", "a user's file"}) {
        fs::remove(record);
        if (kind == "link to the dump") fs::create_symlink("d.assbin", record);
        if (kind == "hard link to the dump") fs::create_hard_link(input, record);
        if (kind == "fifo") BOOST_REQUIRE(::mkfifo(record.c_str(), 0600) == 0);
        if (kind == "a user's file") std::ofstream(record) << "my notes\n";
        const std::string before = kind == "fifo" ? "" : slurp(record);
        for (int run = 0; run < 2; ++run) {
            const auto result = run_cli({"convert", input.string(), "--skip-existing", "--json"});
            BOOST_TEST(result.exit_code == 0, kind << ": " << result.err);
            BOOST_TEST(contains(result.out, "\"status\": \"converted\""), kind); // never up to date
            BOOST_TEST(contains(result.out, "not recorded for --skip-existing"), kind);
            BOOST_TEST(!contains(result.out, ".assbin-convert.log\""), kind); // not named as written
        }
        BOOST_TEST(slurp(input) == dump, kind);
        if (kind != "fifo") BOOST_TEST(slurp(record) == before, kind);
        if (kind == "link to the dump") BOOST_TEST(fs::is_symlink(record));
        if (kind == "fifo") BOOST_TEST(fs::is_fifo(record));
    }
}

// An existing file holding something other than what the output writes is refused unless the output
// names it with its own extension: the shell's `render --sheet *.assbin` puts a dump where the sheet
// goes, `render a -o b.assbin` and `cmp --html s1.assbin x y` name an existing dump as a PNG or a page.
BOOST_AUTO_TEST_CASE(an_output_never_replaces_a_file_of_another_kind_unless_named_with_its_own_extension) {
    const TempDir temp;
    const fs::path dump = temp.path() / "a.assbin", other = temp.path() / "b.assbin";
    fs::copy_file(fixture_path("assimp-5.2.5/BLEND__BlenderDefault_250.blend.assbin"), dump);
    fs::copy_file(dump, other);
    const std::string before = slurp(other);
    std::vector<std::vector<std::string>> refused = {
        {"cmp", "--html", other.string(), dump.string(), dump.string()},
        {"convert", dump.string(), "-o", (temp.path() / "m.gltf").string()}};
    fs::copy_file(dump, temp.path() / "m.gltf"); // a dump named like a glTF: its extension is convert's own
    if (can_draw()) {
        refused.push_back({"render", "--sheet", other.string(), dump.string(), "--size", "32x32"});
        refused.push_back({"render", dump.string(), "-o", other.string(), "--size", "32x32"});
    }
    for (const auto& args : refused) {
        BOOST_TEST_CONTEXT(args[0] << " " << args[1]) {
            const auto result = run_cli(args);
            if (args[0] == "convert") { // the extension is the output's own: done as asked
                BOOST_TEST(result.exit_code == 0, result.err);
                continue;
            }
            BOOST_TEST(result.exit_code == 3, result.err);
            BOOST_TEST(contains(result.err, other.string() + ": holds an ASSBIN dump"));
            BOOST_TEST(slurp(other) == before);
        }
    }
    // A sheet named .png replaces whatever it holds; an empty file holds nothing to lose.
    std::ofstream(temp.path() / "empty.html").flush();
    BOOST_TEST(run_cli({"cmp", dump.string(), dump.string(), "--html", (temp.path() / "empty.html").string()})
                   .exit_code == 0);
}

// `-o -`, /dev/stdout and a link to /proc/self/fd/1 are the standard output: the model goes into the
// stream the shell opened (a file, a pipe), never a file renamed over it, and the report goes to stderr.
BOOST_AUTO_TEST_CASE(the_standard_output_is_a_stream_and_the_report_goes_to_stderr) {
    const TempDir temp;
    const fs::path dump = fixture_path("assimp-5.2.5/BLEND__BlenderDefault_250.blend.assbin");
    const fs::path reference = temp.path() / "reference.glb";
    BOOST_REQUIRE(run_cli({"convert", dump.string(), "-o", reference.string()}).exit_code == 0);
    const fs::path link = temp.path() / "to_fd1";
    fs::create_symlink("/proc/self/fd/1", link);
    for (const std::string& output :
         std::vector<std::string>{"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", link.string()}) {
        BOOST_TEST_CONTEXT(output) {
            const auto result = run_cli({"convert", dump.string(), "-o", output, "--format", "glb"});
            BOOST_TEST(result.exit_code == 0, result.err);
            BOOST_TEST((result.out == slurp(reference)), "the standard output holds the model and only it");
            BOOST_TEST(contains(result.err, "-> " + output + ": "));
        }
    }
    BOOST_TEST(fs::is_symlink(link));
    BOOST_TEST(!fs::exists(fs::current_path() / "-"));
    const auto json = run_cli({"convert", dump.string(), "-o", "-", "--format", "glb", "--json"});
    BOOST_TEST((json.out == slurp(reference)));
    BOOST_TEST(contains(json.err, "\"written\""));
    // A .gltf names files beside it, which a stream cannot hold: refused, nothing written.
    const auto gltf = run_cli({"convert", dump.string(), "-o", "-", "--format", "gltf"});
    BOOST_TEST(gltf.exit_code == 3);
    BOOST_TEST(gltf.out.empty());
    BOOST_TEST(contains(gltf.err, "a stream has no folder to hold them"));
    // dump writes a dump into it too.
    const auto rewritten = run_cli({"dump", dump.string(), "-"});
    BOOST_TEST(rewritten.exit_code == 0, rewritten.err);
    BOOST_TEST(rewritten.out.starts_with("ASSIMP.binary-dump."));
}

// An image the conversion reads is an input: a glTF's image beside it, named by the output's rule
// (STEM.0.png), never replaces it (before, the source was replaced by the converted copy of itself).
BOOST_AUTO_TEST_CASE(a_texture_the_conversion_reads_is_never_replaced_by_an_output_image) {
    const TempDir temp;
    std::string bytes = slurp(fixture_path("assimp-5.2.5/3DS__cube_with_diffuse_texture.3DS.assbin"));
    const size_t at = bytes.find("TEST.PNG");
    BOOST_REQUIRE(at != std::string::npos);
    bytes.replace(at, 8, "ab.0.png"); // the name `-o ab.gltf` gives its first image
    const fs::path dump = temp.path() / "cube.assbin", image = temp.path() / "ab.0.png";
    std::ofstream(dump, std::ios::binary) << bytes;
    fs::copy_file(fixture_path("textures/3DS/test.png"), image);
    const std::string image_before = slurp(image);
    const auto result = run_cli({"convert", dump.string(), "-o", (temp.path() / "ab.gltf").string()});
    BOOST_TEST(result.exit_code == 3, result.err);
    BOOST_TEST(contains(result.err, "ab.0.png: is the input"));
    BOOST_TEST(slurp(image) == image_before);
    BOOST_TEST(!fs::exists(temp.path() / "ab.gltf"));
}

// One model converted to .gltf and to .aem (2024 layout) in one folder, in either order: each format
// names its own images (a .gltf's STEM.K.png, the 2024 layout's bottom-row-first STEM_K.png), so
// both hold what each conversion alone writes, and with --skip-existing neither run redoes the other.
// Before, both wrote STEM_0.png and the second replaced the first's image.
BOOST_AUTO_TEST_CASE(a_gltf_and_an_aem_of_one_model_share_a_folder_in_either_order) {
    const std::string dump = fixture_path("assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin").string();
    const TempDir reference;
    fs::create_directories(reference.path() / "aem");
    fs::create_directories(reference.path() / "gltf");
    for (const char* format : {"aem", "gltf"}) {
        const auto alone = run_cli({"convert", dump, "-o", (reference.path() / format / "box.").string() + format});
        BOOST_REQUIRE_MESSAGE(alone.exit_code == 0, alone.err);
    }
    BOOST_REQUIRE(fs::exists(reference.path() / "aem/box_0.png"));
    BOOST_REQUIRE(fs::exists(reference.path() / "gltf/box.0.png"));
    BOOST_REQUIRE(slurp(reference.path() / "aem/box_0.png") != slurp(reference.path() / "gltf/box.0.png"));
    for (const bool gltf_first : {true, false}) {
        const TempDir temp;
        const std::vector<std::string> order =
            gltf_first ? std::vector<std::string>{"gltf", "aem"} : std::vector<std::string>{"aem", "gltf"};
        for (int pass = 0; pass < 2; ++pass) {
            for (const std::string& format : order) {
                const auto run = run_cli({"convert", dump, "-o", (temp.path() / ("box." + format)).string(),
                                          "--skip-existing", "--json"});
                BOOST_TEST(run.exit_code == 0, run.err);
                // The second pass finds both up to date: neither run replaced the other's files.
                BOOST_TEST(contains(run.out, pass == 0 ? "\"status\": \"converted\"" : "\"status\": \"up to date\""), format << " " << pass);
            }
        }
        for (const char* name : {"aem/box.aem", "aem/box_0.png", "gltf/box.gltf", "gltf/box.bin", "gltf/box.0.png"})
            BOOST_TEST(slurp(temp.path() / fs::path(name).filename()) == slurp(reference.path() / name), name);
    }
}

// --json names every file a conversion put in place: the output, the files beside it, the record.
BOOST_AUTO_TEST_CASE(the_json_report_names_every_file_written) {
    const TempDir temp;
    const fs::path dump = temp.path() / "cube.assbin";
    fs::copy_file(fixture_path("assimp-5.2.5/3DS__cube_with_diffuse_texture.3DS.assbin"), dump);
    fs::create_directories(temp.path() / "out");
    const auto result =
        run_cli({"convert", dump.string(), "-o", (temp.path() / "out/x.gltf").string(), "--json",
                 "--skip-existing", "--texture-dir", fixture_path("textures/3DS").string()});
    BOOST_TEST(result.exit_code == 0, result.err);
    std::vector<std::string> written;
    for (const auto& entry : fs::directory_iterator(temp.path() / "out"))
        written.push_back(entry.path().filename().string());
    BOOST_TEST(written.size() == 4u); // x.gltf, x.bin, x.0.png, .assbin-convert.log
    for (const std::string& name : written)
        BOOST_TEST(contains(result.out, "out/" + name + "\""), name);
}

// dump and cmp --html report what they put in place, as convert does (--json "written"); a dump of a
// folder with an output that cannot be written exits 3, as a convert batch does (before, 1).
BOOST_AUTO_TEST_CASE(dump_and_cmp_json_name_every_file_written_and_a_batch_that_cannot_write_exits_3) {
    const TempDir temp;
    const fs::path in = temp.path() / "in", out = temp.path() / "out";
    fs::create_directories(in / "deeper");
    fs::copy_file(fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin"), in / "a.assbin");
    fs::copy_file(fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin"), in / "deeper/b.assbin");
    std::ofstream(in / "marker.assbin").flush(); // an expected-failure marker: written empty
    const auto folder = run_cli({"dump", in.string(), out.string(), "--json"});
    BOOST_TEST(folder.exit_code == 0, folder.err);
    for (const char* name : {"a.assbin", "deeper/b.assbin", "marker.assbin"}) {
        BOOST_TEST(fs::exists(out / name), name);
        BOOST_TEST(contains(folder.out, "\"" + (out / name).string() + "\""), name);
    }
    BOOST_TEST(contains(folder.out, "\"empty_markers\": 1"));
    // The --json run writes the dump one without it writes (the header's command field omits --json).
    const auto one = run_cli({"dump", (in / "a.assbin").string(), (temp.path() / "one.assbin").string(), "--json",
                              "--source-name", "s"});
    const auto plain = run_cli({"dump", (in / "a.assbin").string(), (temp.path() / "plain.assbin").string(),
                                "--source-name", "s"});
    BOOST_TEST(one.exit_code == 0, one.err);
    BOOST_TEST(contains(one.out, "\"written\": [\n    \"" + (temp.path() / "one.assbin").string() + "\"\n  ]"), one.out);
    // The same scene and the same header command field (the header's time stamp may differ by a second).
    BOOST_TEST(run_cli({"cmp", (temp.path() / "one.assbin").string(), (temp.path() / "plain.assbin").string()})
                   .exit_code == 0);
    const auto command_line = [](const std::string& info) { return info.substr(info.find("\ncommand ")); };
    BOOST_TEST(command_line(run_cli({"info", (temp.path() / "one.assbin").string()}).out) ==
               command_line(run_cli({"info", (temp.path() / "plain.assbin").string()}).out));

    const fs::path page = temp.path() / "report.html";
    const auto compared = run_cli({"cmp", (in / "a.assbin").string(), (in / "deeper/b.assbin").string(), "--html",
                                   page.string(), "--json"});
    BOOST_TEST(compared.exit_code == 0, compared.err);
    BOOST_TEST(contains(compared.out, "\"written\": [\n    \"" + page.string() + "\"\n  ]"), compared.out);

    // One output of the batch is an existing folder: refused, the others written, exit 3.
    const fs::path blocked = temp.path() / "blocked";
    fs::create_directories(blocked / "a.assbin");
    const auto batch = run_cli({"dump", in.string(), blocked.string(), "--json"});
    BOOST_TEST(batch.exit_code == 3, batch.err);
    BOOST_TEST(fs::is_directory(blocked / "a.assbin"));
    BOOST_TEST(fs::exists(blocked / "deeper/b.assbin"));
    BOOST_TEST(!contains(batch.out, "\"" + (blocked / "a.assbin").string() + "\"\n"));
}

// An output under a folder that cannot be made says why: "none can be made in ro (Operation not
// permitted)", not "cannot open its folder (No such file or directory)", which hid the cause.
// An immutable folder for root (chattr +i), a folder without write permission for anyone else.
BOOST_AUTO_TEST_CASE(an_output_folder_that_cannot_be_made_says_why, *assbin_test::may_skip()) {
    const TempDir temp;
    const fs::path ro = temp.path() / "ro";
    fs::create_directories(ro);
    const bool root = ::geteuid() == 0;
    if (root && std::system(("chattr +i '" + ro.string() + "' 2>/dev/null").c_str()) != 0)
        assbin_test::skip_check("an immutable folder: chattr +i fails here (no attributes on this file system)");
    if (!root) fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
    const std::string dump = fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin").string();
    const std::vector<std::vector<std::string>> runs = {
        {"convert", dump, "-o", (ro / "sub/x.glb").string()},
        {"dump", dump, (ro / "sub/x.assbin").string()},
        {"cmp", dump, dump, "--html", (ro / "sub/x.html").string()},
    };
    for (const auto& args : runs) {
        const auto run = run_cli(args);
        BOOST_TEST(run.exit_code == 3, args[0] << ": " << run.err);
        BOOST_TEST(contains(run.err, "its folder " + (ro / "sub").string() + " does not exist, and none can be made in " +
                                         ro.string() + " (" + (root ? "Operation not permitted" : "Permission denied") + ")"),
                   args[0] << ": " << run.err);
    }
    if (root) std::system(("chattr -i '" + ro.string() + "'").c_str());
    else fs::permissions(ro, fs::perms::owner_all);
}

// SIGINT during a batch: the outputs finished are complete and in place, no temporary is left, and a
// line on stderr says how many were finished and that --skip-existing goes on; the process then dies
// of the signal (the shell's 130).
BOOST_AUTO_TEST_CASE(an_interrupted_batch_says_what_was_finished_and_leaves_no_partial_file) {
    const TempDir temp;
    const fs::path in = temp.path() / "in", err = temp.path() / "stderr.txt";
    fs::create_directories(in);
    for (int k = 0; k < 400; ++k)
        fs::copy_file(fixture_path("assimp-5.2.5/COB__dwarf.cob.assbin"),
                      in / ("d" + std::to_string(k) + ".assbin"));
    // Interrupted at several points, on one thread and on two (a temporary created by one thread
    // while the handler ran on another was once left behind).
    for (const auto& [threshold, jobs] : std::vector<std::pair<size_t, const char*>>{{3, "1"}, {1, "2"}, {10, "2"}, {30, "2"}}) {
        const fs::path out = temp.path() / ("out" + std::to_string(threshold) + "-" + jobs);
        const pid_t pid = ::fork();
        BOOST_REQUIRE(pid >= 0);
        if (pid == 0) {
            const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ::dup2(fd, 2);
            const int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, 1);
            ::execl(ASSBIN_CLI_PATH, ASSBIN_CLI_PATH, "convert", in.c_str(), "--out-dir", out.c_str(), "--jobs", jobs,
                    "--quiet", static_cast<char*>(nullptr));
            ::_exit(127);
        }
        // Interrupt once some outputs are in place (or after 10 s).
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        const auto outputs = [&] {
            std::error_code ignored;
            size_t n = 0;
            for (auto it = fs::directory_iterator(out, ignored); !ignored && it != fs::directory_iterator(); ++it)
                n += it->path().extension() == ".aem";
            return n;
        };
        while (outputs() < threshold && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ::kill(pid, SIGINT);
        int status = 0;
        ::waitpid(pid, &status, 0);
        const std::string said = slurp(err);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            BOOST_TEST_MESSAGE("the batch finished before the signal: nothing to check");
            continue;
        }
        BOOST_TEST((WIFSIGNALED(status) && WTERMSIG(status) == SIGINT), threshold << " " << jobs);
        BOOST_TEST(contains(said, "assbin: interrupted: "), said);
        BOOST_TEST(contains(said, " of 400 outputs finished and in place"), said);
        BOOST_TEST(contains(said, "run again with --skip-existing to go on"), said);
        for (const auto& entry : fs::directory_iterator(out)) {
            BOOST_TEST(!entry.path().filename().string().starts_with("."), entry.path()); // no temporary
            const auto check = run_cli({"aem-info", entry.path().string(), "--validate"});
            BOOST_TEST(check.exit_code == 0, entry.path());
        }
    }
}

// `dump da da/sub`, run twice: the output folder inside the input folder holds the verb's own outputs,
// never read as inputs (before, the second run nested da/sub/sub and failed on its own files).
BOOST_AUTO_TEST_CASE(dump_into_a_folder_inside_its_input_never_reads_its_own_outputs) {
    const TempDir temp;
    const fs::path in = temp.path() / "da";
    fs::create_directories(in);
    fs::copy_file(fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin"), in / "t.assbin");
    for (int run = 0; run < 2; ++run) {
        const auto result = run_cli({"dump", in.string(), (in / "sub").string()});
        BOOST_TEST(result.exit_code == 0, result.err);
        BOOST_TEST(contains(result.out, "wrote 1 dump"), result.out);
    }
    BOOST_TEST(fs::exists(in / "sub/t.assbin"));
    BOOST_TEST(!fs::exists(in / "sub/sub"));
}

BOOST_AUTO_TEST_SUITE_END()
