// Faults around the bytes (issue "Faults, not just bad bytes"): output names at NAME_MAX and paths
// near PATH_MAX, a file-size limit, a full disk, a folder that cannot be written, one file of a batch
// that cannot be written, inputs that are not regular files or change while read, and a batch killed
// with SIGKILL then run again with --skip-existing. Each checks the exit status, the message (the
// file and the cause), that no partial file has the final name, that no temporary is left, and that
// the inputs are byte for byte what they were.
#define BOOST_TEST_MODULE faults
// GCC 12 flags `"literal" + std::string` with a false -Wrestrict in Release (a known libstdc++
// false positive); the shell command lines here are built that way for readability.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "support/fixtures.hpp"
#include "support/skip.hpp"

#include <aem/io.hpp>
#include <aem/validate.hpp>
#include <mapped_file.hpp>
#include <quoting.hpp>
#include <sigbus_guard.hpp>

#include <boost/test/unit_test.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using assbin_test::fixture_path;
using assbin_test::run_cli;
using assbin_test::TempDir;

namespace {

const std::string kModel = "assimp-5.2.5/FBX__huesitos.fbx.assbin"; // a 30 KB AEM model
const std::string kSmall = "assimp-5.2.5/SMD__triangle.smd.assbin";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string bytes_of(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Temporaries any writer of the project leaves (".NAME.tmp-PID-N") anywhere below `folder`.
size_t temporaries_below(const fs::path& folder) {
    size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(folder))
        count += contains(entry.path().filename().string(), ".tmp-");
    return count;
}

// Runs a shell command line (for ulimit, background jobs and kill); returns its exit status.
int shell(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string shell_quoted(const fs::path& path) {
    return assbin_common::shell_quote(path.string());
}

const std::string& cli() {
    static const std::string path = ASSBIN_CLI_PATH;
    return path;
}

// An input copied into `folder`, and its bytes, to check that nothing touched it.
struct Input {
    fs::path path;
    std::string bytes;
};
Input copy_input(const std::string& fixture, const fs::path& folder, const std::string& name = "") {
    fs::create_directories(folder);
    Input input{folder / (name.empty() ? fs::path(fixture).filename() : fs::path(name)),
                bytes_of(fixture_path(fixture))};
    std::ofstream(input.path, std::ios::binary) << input.bytes;
    return input;
}

void expect_unchanged(const Input& input) {
    BOOST_TEST(bytes_of(input.path) == input.bytes);
}

} // namespace

BOOST_AUTO_TEST_CASE(an_output_name_of_255_bytes_and_a_path_near_path_max_are_written) {
    const TempDir temp;
    const Input input = copy_input(kModel, temp / "in");
    const std::string longest = std::string(251, 'n') + ".aem"; // NAME_MAX: the temporary must be cut
    const auto converted = run_cli({"convert", input.path.string(), "-o", (temp / "out" / longest).string()});
    fs::create_directories(temp / "out");
    const auto again = run_cli({"convert", input.path.string(), "-o", (temp / "out" / longest).string()});
    BOOST_TEST(again.exit_code == 0, again.err);
    BOOST_TEST(aem::validate(aem::read_file(temp / "out" / longest)).empty());
    const auto dumped =
        run_cli({"dump", input.path.string(), (temp / "out" / (std::string(248, 'd') + ".assbin")).string()});
    BOOST_TEST(dumped.exit_code == 0, dumped.err);
    BOOST_TEST(temporaries_below(temp.path()) == 0u);

    // Folders, then the 255-byte name: the whole path between 3,850 and 4,050 bytes (PATH_MAX 4,096).
    fs::path deep = temp / "deep";
    while (deep.string().size() + 201 + 256 < 4050)
        deep /= std::string(200, 'f');
    fs::create_directories(deep);
    const auto nested = run_cli({"convert", input.path.string(), "-o", (deep / longest).string()});
    BOOST_TEST(nested.exit_code == 0, nested.err);
    BOOST_TEST(fs::exists(deep / longest));
    BOOST_TEST(temporaries_below(temp.path()) == 0u);
    expect_unchanged(input);
    (void)converted;
}

BOOST_AUTO_TEST_CASE(a_file_size_limit_fails_the_write_cleanly) {
    const TempDir temp;
    const Input input = copy_input(kModel, temp / "in");
    const fs::path out = temp / "out.aem", err = temp / "err.txt";
    // 4 KiB (ulimit counts 1,024-byte blocks): the 30 KB model cannot be written; SIGXFSZ is ignored
    // by the program, so the write fails with EFBIG and is reported.
    const int status =
        shell("ulimit -f 4 && exec " + shell_quoted(cli()) + " convert " + shell_quoted(input.path) + " -o " +
              shell_quoted(out) + " 2> " + shell_quoted(err));
    BOOST_TEST(status == 3); // an output that cannot be written
    const std::string message = bytes_of(err);
    BOOST_TEST(contains(message, out.string() + ": cannot write (File too large)"), message);
    BOOST_TEST(!fs::exists(out));
    const fs::path dumped = temp / "out.assbin";
    BOOST_TEST(shell("ulimit -f 4 && exec " + shell_quoted(cli()) + " dump " + shell_quoted(input.path) +
                     " " + shell_quoted(dumped) + " 2> " + shell_quoted(err)) == 3);
    BOOST_TEST(contains(bytes_of(err), "File too large"));
    BOOST_TEST(!fs::exists(dumped));
    BOOST_TEST(temporaries_below(temp.path()) == 0u);
    expect_unchanged(input);
}

BOOST_AUTO_TEST_CASE(one_file_of_a_batch_that_cannot_be_written_fails_alone) {
    const TempDir temp;
    const Input a = copy_input(kModel, temp / "in", "a.assbin");
    const Input b = copy_input(kSmall, temp / "in", "b.assbin");
    const Input c = copy_input(kSmall, temp / "in", "c.assbin");
    fs::create_directories(temp / "out" / "b.aem"); // something that is not a file holds b's name
    const auto batch =
        run_cli({"convert", (temp / "in").string(), "--out-dir", (temp / "out").string(), "--jobs", "1"});
    BOOST_TEST(batch.exit_code == 3); // an output that cannot be written: 3 in a batch too (--help)
    // Refused before b is read (common/output_target.hpp): a folder is never replaced.
    BOOST_TEST(contains(batch.err, (temp / "out" / "b.aem").string() + ": is a folder, not a file"),
               batch.err);
    BOOST_TEST(fs::is_regular_file(temp / "out" / "a.aem"));
    BOOST_TEST(fs::is_regular_file(temp / "out" / "c.aem"));
    BOOST_TEST(contains(batch.out, "total: 2 converted, 1 failed"));
    BOOST_TEST(temporaries_below(temp.path()) == 0u);
    expect_unchanged(a), expect_unchanged(b), expect_unchanged(c);
}

BOOST_AUTO_TEST_CASE(an_impossible_output_folder_is_named_with_its_cause) {
    const TempDir temp;
    const Input input = copy_input(kSmall, temp / "in");
    // convert creates missing output folders; one under a file cannot be.
    std::ofstream(temp / "a-file") << "x";
    const fs::path impossible = temp / "a-file" / "out.aem";
    const auto result = run_cli({"convert", input.path.string(), "-o", impossible.string()});
    BOOST_TEST(result.exit_code == 3);
    BOOST_TEST(contains(result.err,
                        "a-file/out.aem: cannot create a temporary file beside it: cannot open its folder "
                        "(Not a directory)"),
               result.err);
    BOOST_TEST(bytes_of(temp / "a-file") == "x");
    expect_unchanged(input);
}

BOOST_AUTO_TEST_CASE(a_read_only_output_folder_is_named_with_its_cause, *assbin_test::may_skip()) {
    const TempDir temp;
    const Input input = copy_input(kSmall, temp / "in");
    const fs::path locked = temp / "locked";
    fs::create_directories(locked);
    // Root ignores permission bits; an immutable folder (chattr +i) stops root too, where the file
    // system supports it.
    const bool made = ::geteuid() != 0
                          ? (fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec), true)
                          : shell("chattr +i " + shell_quoted(locked) + " 2> /dev/null") == 0;
    if (!made)
        assbin_test::skip_check("a read-only folder: running as root where chattr +i is not supported");
    const auto denied = run_cli({"dump", input.path.string(), (locked / "x.assbin").string()});
    BOOST_TEST(denied.exit_code == 3);
    BOOST_TEST(contains(denied.err, "x.assbin: cannot create a temporary file beside it ("), denied.err);
    BOOST_TEST(fs::is_empty(locked));
    if (::geteuid() == 0) shell("chattr -i " + shell_quoted(locked));
    fs::permissions(locked, fs::perms::owner_all);
    expect_unchanged(input);
}

BOOST_AUTO_TEST_CASE(a_full_disk_fails_the_write_cleanly, *assbin_test::may_skip()) {
    const TempDir temp;
    const Input input = copy_input(kModel, temp / "in");
    const fs::path small = temp / "small";
    fs::create_directories(small);
    if (shell("mount -t tmpfs -o size=16k tmpfs " + shell_quoted(small) + " 2> /dev/null") != 0)
        assbin_test::skip_check("a full disk: a 16 KiB tmpfs cannot be mounted here (needs root)");
    const auto result = run_cli({"convert", input.path.string(), "-o", (small / "out.aem").string()});
    BOOST_TEST(result.exit_code == 3);
    BOOST_TEST(contains(result.err, "out.aem: cannot write (No space left on device)"), result.err);
    BOOST_TEST(fs::is_empty(small)); // neither the output nor its temporary
    shell("umount " + shell_quoted(small));
    expect_unchanged(input);
}

BOOST_AUTO_TEST_CASE(inputs_that_are_not_regular_files_are_refused_without_hanging) {
    const TempDir temp;
    const fs::path fifo = temp / "pipe.assbin";
    BOOST_TEST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const fs::path err = temp / "err.txt";
    // A FIFO without a writer would block a plain open forever: `timeout` turns a hang into 124.
    BOOST_TEST(shell("timeout 20 " + shell_quoted(cli()) + " info " + shell_quoted(fifo) + " 2> " +
                     shell_quoted(err)) == 2);
    BOOST_TEST(contains(bytes_of(err), "pipe.assbin: is a FIFO (named pipe), not a file that can be read"));
    BOOST_TEST(shell("timeout 20 " + shell_quoted(cli()) + " info /dev/zero 2> " + shell_quoted(err)) == 2);
    BOOST_TEST(contains(bytes_of(err), "/dev/zero: is a device, not a file that can be read"));
    const auto folder = run_cli({"info", temp.path().string()});
    BOOST_TEST(folder.exit_code == 2);
    BOOST_TEST(contains(folder.err, "is a folder, not a file that can be read"));
    // A file whose size says 0 but which holds bytes (procfs): it changed while it was read.
    const auto growing = run_cli({"info", "/proc/self/status"});
    BOOST_TEST(growing.exit_code == 2);
    BOOST_TEST(contains(growing.err, "the file grew while it was read"), growing.err);
    BOOST_TEST(shell("timeout 20 " + shell_quoted(cli()) + " aem-info " + shell_quoted(fifo) + " 2> " +
                     shell_quoted(err)) == 2);
    BOOST_TEST(contains(bytes_of(err), "pipe.assbin: is a FIFO (named pipe), not a file that can be read"));
}

BOOST_AUTO_TEST_CASE(a_file_shorter_than_its_size_is_refused_as_shrinking, *assbin_test::may_skip()) {
    // A file whose size says 4,096 but which holds fewer bytes (sysfs): to the reader, exactly a file
    // cut while it was read.
    std::optional<fs::path> shorter_than_said;
    for (const char* candidate : {"/sys/devices/system/cpu/online", "/sys/kernel/uevent_seqnum",
                                  "/sys/kernel/mm/transparent_hugepage/enabled"}) {
        std::error_code error;
        const auto said = fs::file_size(candidate, error);
        if (!error && said > 0 && bytes_of(candidate).size() < said) {
            shorter_than_said = candidate;
            break;
        }
    }
    if (!shorter_than_said)
        assbin_test::skip_check("a shrinking file: no sysfs file here holds less than its size");
    const auto shrinking = run_cli({"info", shorter_than_said->string()});
    BOOST_TEST(shrinking.exit_code == 2);
    BOOST_TEST(contains(shrinking.err, "the file shrank while it was read: 4096 bytes when opened"),
               shrinking.err);
}

// Inputs are read from memory mappings; a file another program cuts while it is mapped raises SIGBUS on
// the lost pages. The CLI's guard turns that into the error line and exit status of any unreadable
// input. Forked children: one without the guard (killed by SIGBUS: what the guard is for), one with.
int read_a_mapped_file_cut_under_it(const fs::path& file, bool guarded, const fs::path& err) {
    const pid_t child = ::fork();
    if (child == 0) {
        std::freopen(err.c_str(), "w", stderr);
        if (guarded)
            assbin::cli::install_sigbus_guard();
        else
            std::signal(SIGBUS, SIG_DFL); // Boost.Test's own handler would report it and go on
        assbin::cli::note_mapped_input(file.string());
        const assbin_common::MappedFile mapped(file);
        if (!mapped.mapped()) ::_exit(3);
        if (::truncate(file.c_str(), 0) != 0) ::_exit(4);
        const volatile std::byte last = mapped.bytes().back(); // on a page the file no longer has
        (void)last;
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return status;
}

BOOST_AUTO_TEST_CASE(a_mapped_input_cut_while_it_is_read_is_an_error_not_a_crash) {
    const TempDir temp;
    const fs::path err = temp / "err.txt";
    copy_input("assimp-5.2.5/COB__dwarf.cob.assbin", temp.path(), "cut.assbin");
    const int unguarded = read_a_mapped_file_cut_under_it(temp / "cut.assbin", false, err);
    BOOST_TEST_REQUIRE(!(WIFEXITED(unguarded) && WEXITSTATUS(unguarded) == 3), "mapping failed here");
    BOOST_TEST((WIFSIGNALED(unguarded) && WTERMSIG(unguarded) == SIGBUS));
    copy_input("assimp-5.2.5/COB__dwarf.cob.assbin", temp.path(), "cut.assbin");
    const int guarded = read_a_mapped_file_cut_under_it(temp / "cut.assbin", true, err);
    BOOST_TEST((WIFEXITED(guarded) && WEXITSTATUS(guarded) == 2));
    BOOST_TEST(contains(bytes_of(err), "cut.assbin: the file shrank while it was read"), bytes_of(err));
}

BOOST_AUTO_TEST_CASE(a_batch_killed_then_run_again_redoes_only_what_is_missing_or_stale,
                     *assbin_test::may_skip()) {
    const TempDir temp;
    constexpr int kFiles = 120;
    for (int i = 0; i < kFiles; ++i)
        copy_input("assimp-5.2.5/COB__dwarf.cob.assbin", temp / "in",
                   "m" + std::to_string(1000 + i) + ".assbin");
    const fs::path out = temp / "out";
    fs::create_directories(out);
    // Started in the background and killed with SIGKILL once a few outputs are in place. A batch
    // meant to be resumed records its outputs from the start (--skip-existing; a plain run records
    // nothing, cli_convert_test).
    shell("(" + shell_quoted(cli()) + " convert " + shell_quoted(temp / "in") + " --out-dir " +
          shell_quoted(out) + " --jobs 1 -q --skip-existing > /dev/null 2>&1 & pid=$!; i=0; while [ $(ls " +
          shell_quoted(out) +
          " | grep -c '\\.aem$') -lt 5 ] && [ $i -lt 2000 ]; do sleep 0.005; i=$((i+1)); done; kill -9 $pid; "
          "wait $pid)");
    size_t complete = 0;
    std::map<std::string, ino_t> inodes;
    for (const auto& entry : fs::directory_iterator(out)) {
        if (entry.path().extension() != ".aem") continue;
        BOOST_TEST(aem::validate(aem::read_file(entry.path())).empty()); // every output in place is whole
        struct stat status {};
        ::stat(entry.path().c_str(), &status);
        inodes[entry.path().filename().string()] = status.st_ino;
        ++complete;
    }
    BOOST_TEST_MESSAGE(complete << " of " << kFiles << " outputs were complete when the batch was killed");
    BOOST_TEST(complete >= 5u);
    if (complete == static_cast<size_t>(kFiles))
        assbin_test::skip_check("a killed batch: the batch of " + std::to_string(kFiles) +
                                " files finished before it could be killed");
    // A source changed since: its output is stale and must be redone.
    std::ofstream(temp / "in" / "m1000.assbin", std::ios::binary | std::ios::app) << "trailing";

    const auto again =
        run_cli({"convert", (temp / "in").string(), "--out-dir", out.string(), "--skip-existing"});
    BOOST_TEST(again.exit_code == 0, again.err);
    size_t outputs = 0, rewritten = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
        if (entry.path().extension() != ".aem") continue;
        ++outputs;
        struct stat status {};
        ::stat(entry.path().c_str(), &status);
        const auto before = inodes.find(entry.path().filename().string());
        rewritten += before != inodes.end() && before->second != status.st_ino;
    }
    BOOST_TEST(outputs == static_cast<size_t>(kFiles));
    // Only m1000, whose source changed: an output is recorded before it is renamed into place, so
    // none killed between its rename and its record is redone (a writer renames a whole batch of
    // files at once).
    BOOST_TEST(rewritten == 1u);
    BOOST_TEST(contains(again.out, "m1000.assbin -> "));
    BOOST_TEST(!contains(again.out, "m1000.assbin -> " + (out / "m1000.aem").string() + ": up to date"));
    BOOST_TEST(temporaries_below(temp.path()) == 0u);
    const auto third =
        run_cli({"convert", (temp / "in").string(), "--out-dir", out.string(), "--skip-existing"});
    BOOST_TEST(contains(third.out, "total: 0 converted, " + std::to_string(kFiles) + " up to date, 0 failed"),
               third.out);
}
