// The words a user reads: usage errors in the synopsis's terms, the verb that reads a file given to
// the wrong one, a cut compressed dump told from a corrupt one, one vocabulary in cmp's lines,
// summary and JSON, and counts that agree with their nouns.
#include "cli/cli_helpers.hpp"
#include "counting.hpp"
#include "quoting.hpp"

#include <assbin/reader.hpp>
#include <assbin/writer.hpp>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

using assbin_cli_test::contains;
using assbin_cli_test::fixture;
using assbin_cli_test::read_text;
using assbin_cli_test::write_text;
using assbin_test::fixture_path;
using assbin_test::run_cli;
using assbin_test::TempDir;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(messages)

BOOST_AUTO_TEST_CASE(usage_errors_use_the_synopsis_words) {
    const std::pair<std::vector<std::string>, std::string> cases[] = {
        {{"info"}, "info needs a FILE"},
        {{"tree"}, "tree needs a FILE"},
        {{"aem-info"}, "aem-info needs a FILE"},
        {{"cmp"}, "cmp needs ACTUAL and EXPECTED"},
        {{"cmp", "a"}, "cmp needs an EXPECTED"},
        {{"dump", "a"}, "dump needs an OUT"},
        {{"convert"}, "convert needs an IN"},
        {{"render"}, "render needs an IN"},
        {{"info", "a", "b"}, "info takes one FILE; 'b' is one too many"},
        {{"cmp", "a", "b", "c"}, "cmp takes ACTUAL and EXPECTED; 'c' is one too many"},
    };
    for (const auto& [args, words] : cases) {
        BOOST_TEST_CONTEXT(words) {
            const auto result = run_cli(args);
            BOOST_TEST(result.exit_code == 2);
            BOOST_TEST(contains(result.err, "assbin: error: " + words), result.err);
            BOOST_TEST(!contains(result.err, "'--"), "names a hidden option: " << result.err);
        }
    }
}

namespace {

// A 24 MB dump (a triangle whose mesh holds 2,000,000 vertices): its scene takes more than the
// 16 MiB every read may take whatever --max-allocation-ratio says, so a ratio of 0 is hit.
std::string big_dump(const TempDir& dir) {
    assbin::Scene scene = assbin::read_file(fixture("SMD__triangle.smd.assbin"));
    assbin::Mesh& mesh = scene.meshes.at(0);
    mesh.vertex_count = 2'000'000;
    for (auto* stream : {&mesh.positions, &mesh.normals, &mesh.tangents, &mesh.bitangents})
        if (*stream) (*stream)->values.resize(mesh.vertex_count);
    for (assbin::UvChannel& uv : mesh.uv_channels)
        uv.values.resize(mesh.vertex_count);
    for (auto& colours : mesh.color_sets)
        colours.values.resize(mesh.vertex_count);
    mesh.bones.clear();
    const fs::path file = dir / "big.assbin";
    assbin::write_file(scene, file);
    return file.string();
}

} // namespace

// Each reader limit, hit: the error names the option that raises it and the option's unit, never
// the library's field (max_inflated_bytes) or a value in another unit than the option's; for every
// verb that reads dumps.
BOOST_AUTO_TEST_CASE(every_limit_error_names_its_option_and_unit) {
    const TempDir dir;
    const std::string compressed = fixture("OBJ__spider.obj.z.assbin");
    const std::string nested = fixture("FBX__huesitos.fbx.assbin");
    struct Case {
        std::vector<std::string> options;
        std::string file;
        std::string says;
    };
    const Case cases[] = {
        {{"--max-inflated-mb", "0"}, compressed, "--max-inflated-mb raises it (in MiB)"},
        {{"--max-inflate-ratio", "2"}, compressed, "--max-inflate-ratio raises it (a multiple of"},
        {{"--max-node-depth", "2"}, nested, "--max-node-depth raises it (in levels of nesting)"},
        {{"--max-allocation-ratio", "0"}, big_dump(dir), "--max-allocation-ratio raises it (a multiple of"},
    };
    for (const Case& limit : cases) {
        for (const std::string verb : {"info", "tree", "convert", "dump", "cmp"}) {
            // info, tree and cmp look at the arrays in the file without copying them: only the verbs
            // that copy them allocate enough to meet the allocation limit.
            if (limit.options.front() == "--max-allocation-ratio" && verb != "convert" && verb != "dump")
                continue;
            BOOST_TEST_CONTEXT(verb << " " << limit.options.front()) {
                std::vector<std::string> args{verb, limit.file};
                if (verb == "convert") args = {verb, limit.file, "-o", (dir / "x.aem").string()};
                if (verb == "dump") args = {verb, limit.file, (dir / "x.assbin").string()};
                if (verb == "cmp") args = {verb, limit.file, limit.file};
                args.insert(args.end(), limit.options.begin(), limit.options.end());
                const auto result = run_cli(args);
                BOOST_TEST(result.exit_code == 2, result.err);
                BOOST_TEST(contains(result.err, limit.says), result.err);
                BOOST_TEST(!contains(result.err, "max_"), result.err);
                BOOST_TEST(!contains(result.err, "limits "), result.err);
            }
        }
    }
}

namespace {

// Every "--name" a text mentions (a scan, not std::regex: GCC 12 warns inside <regex> at -O1).
std::set<std::string> long_options_in(const std::string& text) {
    std::set<std::string> names;
    const auto is_name = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; };
    for (size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at + 2)) {
        size_t end = at + 2;
        if (end >= text.size() || text[end] < 'a' || text[end] > 'z') continue;
        while (end < text.size() && is_name(text[end]))
            ++end;
        names.insert(text.substr(at + 2, end - at - 2));
    }
    return names;
}

// `text` without its '...' quotations.
std::string without_quotations(const std::string& text) {
    std::string out;
    bool quoted = false;
    for (const char c : text) {
        if (c == '\'')
            quoted = !quoted;
        else if (!quoted)
            out += c;
    }
    return out;
}

// The option a line of --help's option list starts with ("  --json", "  -o [ --output ] arg"), or "".
std::string option_of_line(const std::string& line) {
    size_t at = line.find_first_not_of(' ');
    if (at == 0 || at == std::string::npos || line[at] != '-') return {};
    if (line.compare(at, 2, "--") != 0) { // "-o [ --output ]"
        if (line.compare(at + 2, 3, " [ ") != 0) return {};
        at += 5;
    }
    const std::set<std::string> names = long_options_in(line.substr(at, line.find(' ', at) - at));
    return names.empty() ? std::string() : *names.begin();
}

} // namespace

// For every verb and every option its --help shows: a misspelling and an ambiguous prefix are usage
// errors (exit 2) naming only options --help shows, never the hidden ones that carry the operands;
// and those hidden names are refused as options.
BOOST_AUTO_TEST_CASE(usage_errors_name_only_options_that_help_shows) {
    for (const std::string verb : {"info", "tree", "aem-info", "render", "convert", "dump", "cmp"}) {
        const auto help = run_cli({verb, "--help"});
        BOOST_TEST_REQUIRE(help.exit_code == 0);
        // The options themselves: the lines of the option list ("  --json", "  -o [ --output ] arg").
        std::set<std::string> shown;
        std::istringstream lines(help.out);
        for (std::string line; std::getline(lines, line);)
            if (const std::string option = option_of_line(line); !option.empty()) shown.insert(option);
        BOOST_TEST_REQUIRE(shown.size() >= 2u);
        const auto names_only_shown = [&](const std::string& err) {
            // What the user typed is quoted ('--jsn'); everything else the error names must be shown.
            const std::string said = without_quotations(err.substr(0, err.find("\nusage:")));
            for (const std::string& named : long_options_in(said))
                BOOST_TEST(shown.count(named) == 1u,
                           verb << ": names --" << named << " that --help does not show: " << err);
        };
        for (const std::string& name : shown) {
            BOOST_TEST_CONTEXT(verb << " --" << name) {
                const auto misspelt = run_cli({verb, "--" + name + "qz", "x"});
                BOOST_TEST(misspelt.exit_code == 2);
                BOOST_TEST(contains(misspelt.err, "unknown option '--" + name + "qz'"), misspelt.err);
                names_only_shown(misspelt.err);
                // The longest prefix of this name that another shown option shares, if any.
                size_t shared = 0;
                for (const std::string& other : shown) {
                    if (other == name) continue;
                    size_t common = 0;
                    while (common < name.size() && common < other.size() && name[common] == other[common])
                        ++common;
                    shared = std::max(shared, common);
                }
                if (shared == 0 || shared == name.size()) continue;
                const auto ambiguous = run_cli({verb, "--" + name.substr(0, shared), "x"});
                BOOST_TEST(ambiguous.exit_code == 2);
                BOOST_TEST(contains(ambiguous.err, "is ambiguous: it could be"), ambiguous.err);
                BOOST_TEST(contains(ambiguous.err, "--" + name), ambiguous.err);
                names_only_shown(ambiguous.err);
            }
        }
        for (const std::string hidden : {"file", "in", "out", "actual", "expected", "extra-operands"}) {
            const auto abbreviates = [&](const std::string& option) { return option.starts_with(hidden); };
            if (std::count_if(shown.begin(), shown.end(), abbreviates) == 1) continue; // --out for --output
            const auto refused = run_cli({verb, "--" + hidden, "x", "y"});
            BOOST_TEST(refused.exit_code == 2, verb << " --" << hidden);
            BOOST_TEST((contains(refused.err, "unknown option '--" + hidden + "'") ||
                        contains(refused.err, "option '--" + hidden + "' is ambiguous")),
                       verb << ": " << refused.err);
        }
    }
    // The operands are named by the synopsis's words.
    BOOST_TEST(contains(run_cli({"dump", "a", "b", "c"}).err, "dump takes IN and OUT; 'c' is one too many"));
    BOOST_TEST(
        contains(run_cli({"info", "x", "--jsn"}).err, "unknown option '--jsn' (did you mean --json?)"));
}

// One condition, one wording, whichever verb meets it: every verb that reads a file, in text and,
// where it has one, in --json. (cmp takes an empty file for an expected failure, the regression
// database's marker, and convert, dump and cmp take folders: those cells are not errors.)
BOOST_AUTO_TEST_CASE(one_wording_per_condition_across_verbs) {
    const TempDir dir;
    const fs::path missing = dir / "missing.assbin", folder = dir / "folder", empty = dir / "empty.assbin",
                   text = dir / "text.assbin", cut = dir / "cut.assbin", zcut = dir / "zcut.assbin",
                   corrupt = dir / "corrupt.assbin", plain = dir / "plain";
    fs::create_directory(folder);
    write_text(empty, "");
    write_text(text, "hello, not a dump\n");
    write_text(plain, "a file, where a folder should be");
    const std::string whole = read_text(fixture("FBX__huesitos.fbx.assbin"));
    write_text(cut, whole.substr(0, 20000));
    const std::string compressed = read_text(fixture("OBJ__spider.obj.z.assbin"));
    write_text(zcut, compressed.substr(0, compressed.size() - 3));
    std::string damaged = compressed;
    damaged[518] = '\x07';
    write_text(corrupt, damaged);
    const std::string good = fixture("SMD__triangle.smd.assbin");
    const fs::path model = dir / "model.aem";
    BOOST_TEST_REQUIRE(run_cli({"convert", good, "-o", model.string()}).exit_code == 0);
    write_text(dir / "cut.aem", read_text(model.string()).substr(0, 100));

    struct Condition {
        std::string name;
        fs::path file;     // for the dump readers
        fs::path aem_file; // for aem-info (empty: the same file)
        std::string words; // what every verb says
        std::string aem_words = {};
    };
    const Condition conditions[] = {
        {"missing", missing, {}, "no such file"},
        {"folder", folder, {}, "is a folder, not a file that can be read"},
        {"empty", empty, {}, "the file is empty (0 bytes)"},
        {"not a dump", text, {}, "not an ASSBIN dump", "not an AEM model"},
        {"cut", cut, dir / "cut.aem", "the file is cut short"},
        {"cut compressed", zcut, {}, "cut short"},
        {"corrupt", corrupt, {}, "the zlib stream is corrupt"},
    };
    const auto takes_folders = [](const std::string& verb) {
        return verb == "convert" || verb == "dump" || verb == "cmp";
    };
    for (const Condition& condition : conditions) {
        for (const std::string verb : {"info", "tree", "aem-info", "dump", "convert", "cmp", "render"}) {
            if (condition.name == "folder" && takes_folders(verb)) continue;
            if (condition.name == "empty" && verb == "cmp") continue;
            const bool aem = verb == "aem-info";
            if (aem && condition.name.starts_with("c") && condition.name != "cut")
                continue; // compressed: a dump matter
            const std::string file =
                (aem && !condition.aem_file.empty() ? condition.aem_file : condition.file).string();
            const std::string words =
                aem && !condition.aem_words.empty() ? condition.aem_words : condition.words;
            std::vector<std::string> args{verb, file};
            if (verb == "dump") args.push_back((dir / "out.assbin").string());
            if (verb == "convert") args = {verb, file, "-o", (dir / "out.aem").string()};
            if (verb == "cmp") args.push_back(good);
            if (verb == "render") args = {verb, file, "-o", (dir / "out.png").string()};
            BOOST_TEST_CONTEXT(condition.name << ": " << verb) {
                const auto result = run_cli(args);
                BOOST_TEST(result.exit_code == 2);
                BOOST_TEST(contains(result.err, "assbin: error: "), result.err);
                BOOST_TEST(contains(result.err, words), result.err);
                if (verb == "cmp") { // the other side too
                    const auto other = run_cli({"cmp", good, file});
                    BOOST_TEST(contains(other.err, "EXPECTED " + file + ": "), other.err);
                    BOOST_TEST(contains(other.err, words), other.err);
                }
                if (verb == "dump" || verb == "render") continue; // no --json
                args.push_back("--json");
                const auto json = run_cli(args);
                BOOST_TEST(json.exit_code == 2);
                const nlohmann::json document = nlohmann::json::parse(json.out, nullptr, false);
                BOOST_TEST_REQUIRE(!document.is_discarded(), "not JSON: " << json.out);
                const std::string said = verb == "convert" ? document["files"][0]["error"].get<std::string>()
                                         : verb == "cmp"   ? document["pairs"][0]["error"].get<std::string>()
                                                           : document["error"]["message"].get<std::string>();
                BOOST_TEST(contains(said, words), said);
            }
        }
    }
    // An output that cannot be written (a plain file where its folder should be), by every writer.
    const std::string unwritable = (plain / "out").string();
    const std::vector<std::vector<std::string>> writers = {
        {"dump", good, unwritable + ".assbin"},
        {"convert", good, "-o", unwritable + ".aem"},
        {"cmp", good, good, "--html", unwritable + ".html"},
        {"render", good, "-o", unwritable + ".png"},
    };
    for (const auto& args : writers) {
        BOOST_TEST_CONTEXT("unwritable: " << args.front()) {
            const auto result = run_cli(args);
            BOOST_TEST(result.exit_code == 3);
            BOOST_TEST(contains(result.err, "out."), result.err);
            BOOST_TEST(contains(result.err, "cannot create a temporary file beside it"), result.err);
        }
    }
}

// Options that would do nothing say so; small refusals say why; outputs' folders are made.
BOOST_AUTO_TEST_CASE(idle_options_are_said_and_outputs_get_their_folders) {
    const TempDir dir;
    const std::string triangle = fixture("SMD__triangle.smd.assbin");
    const std::string rigged = fixture("FBX__huesitos.fbx.assbin");
    // cmp --verbose lists the same pairs of two folders; on two files it says it does nothing.
    const auto verbose = run_cli({"cmp", triangle, triangle, "--verbose"});
    BOOST_TEST(verbose.exit_code == 0);
    BOOST_TEST(contains(verbose.err, "--verbose does nothing here"), verbose.err);
    // info --json lists every node, or as many as --max-nodes says.
    const auto all = nlohmann::json::parse(run_cli({"info", rigged, "--json"}).out);
    const auto one = nlohmann::json::parse(run_cli({"info", rigged, "--json", "--max-nodes", "1"}).out);
    BOOST_TEST(all["nodes"].size() == all["counts"]["nodes"].get<size_t>());
    BOOST_TEST(one["nodes"].size() == 1u);
    BOOST_TEST(one["nodes_listed"].get<size_t>() == 1u);
    // --known-failures is a text list: a picture given by mistake is refused, not listed as names.
    const fs::path picture = dir / "pic.png";
    write_text(picture, std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
    const auto binary = run_cli({"cmp", triangle, triangle, "--known-failures", picture.string()});
    BOOST_TEST(binary.exit_code == 2);
    BOOST_TEST(contains(binary.err, "it is not a text file of names"), binary.err);
    BOOST_TEST(!contains(binary.out, "stale"));
    // dump --source-name longer than the header's 255 bytes: refused, not cut.
    const auto long_name =
        run_cli({"dump", triangle, (dir / "d.assbin").string(), "--source-name", std::string(300, 'n')});
    BOOST_TEST(long_name.exit_code == 2);
    BOOST_TEST(contains(long_name.err, "--source-name takes at most 255 bytes"), long_name.err);
    // convert and cmp given an AEM model name the verb that reads it, as info does.
    const fs::path model = dir / "m.aem";
    BOOST_TEST_REQUIRE(run_cli({"convert", triangle, "-o", model.string()}).exit_code == 0);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"convert", model.string(), "-o", (dir / "again.aem").string()},
          std::vector<std::string>{"cmp", model.string(), triangle}}) {
        const auto result = run_cli(args);
        BOOST_TEST(result.exit_code == 2);
        BOOST_TEST(contains(result.err, "it is an AEM model: 'assbin aem-info' reads it"), result.err);
    }
    // A 2025 model carries its textures: --texture-dir is said to do nothing; so is --bones on a
    // shortened dump, whose bones are not drawn (not "the model has no bones").
    const fs::path model_2025 = dir / "m2025.aem";
    BOOST_TEST_REQUIRE(
        run_cli({"convert", triangle, "--layout", "2025", "-o", model_2025.string()}).exit_code == 0);
    const auto textures = run_cli({"render", model_2025.string(), "--texture-dir", dir.path().string(), "-o",
                                   (dir / "new" / "folder" / "a.png").string()});
    if (textures.exit_code != 3) { // 3: no OpenGL here
        BOOST_TEST(textures.exit_code == 0, textures.err);
        BOOST_TEST(contains(textures.err, "--texture-dir does nothing here: a 2025 model carries"),
                   textures.err);
        BOOST_TEST(fs::is_regular_file(dir / "new" / "folder" / "a.png")); // the folder was made
        const auto bones = run_cli({"render", fixture("FBX__huesitos.fbx.assbin.regress"), "--bones", "-o",
                                    (dir / "b.png").string()});
        BOOST_TEST(
            contains(bones.err, "a shortened dump is drawn as its meshes' bounding boxes, and its 9 bones"),
            bones.err);
        const auto sheet = run_cli(
            {"render", fixture("OBJ__box.obj.tri.assbin"), "--sheet", (dir / "s.png").string(), "--bones"});
        BOOST_TEST(contains(sheet.err, "--bones draws nothing: the model has no bones"), sheet.err);
    }
    // cmp --html into a folder that does not exist yet.
    const fs::path report = dir / "reports" / "today" / "r.html";
    BOOST_TEST(run_cli({"cmp", triangle, triangle, "--html", report.string()}).exit_code == 0);
    BOOST_TEST(fs::is_regular_file(report));
}

BOOST_AUTO_TEST_CASE(a_file_given_to_the_wrong_verb_names_the_verb_that_reads_it) {
    const TempDir dir;
    const std::string model = (dir / "m.aem").string();
    BOOST_TEST_REQUIRE(run_cli({"convert", fixture("SMD__triangle.smd.assbin"), "-o", model}).exit_code == 0);
    for (const char* verb : {"info", "tree"}) {
        const auto result = run_cli({verb, model});
        BOOST_TEST(result.exit_code == 2);
        BOOST_TEST(contains(result.err, "it is an AEM model: 'assbin aem-info' reads it"), result.err);
    }
    const auto dump = run_cli({"aem-info", fixture("SMD__triangle.smd.assbin")});
    BOOST_TEST(dump.exit_code == 2);
    BOOST_TEST(contains(dump.err, "it is an ASSBIN dump: 'assbin info' reads it"), dump.err);
    // Neither: no hint.
    const auto neither = run_cli({"info", fixture_path("README.md").string()});
    BOOST_TEST(!contains(neither.err, "reads it"));
}

BOOST_AUTO_TEST_CASE(a_cut_compressed_dump_is_cut_short_not_corrupt) {
    const TempDir dir;
    const std::string whole = read_text(fixture("OBJ__spider.obj.z.assbin"));
    for (const size_t keep : {size_t{20000}, whole.size() - 100}) {
        BOOST_TEST_CONTEXT("first " << keep << " bytes") {
            const fs::path cut = dir / ("cut" + std::to_string(keep) + ".assbin");
            write_text(cut, whole.substr(0, keep));
            const auto info = run_cli({"info", cut.string()});
            BOOST_TEST(info.exit_code == 2);
            BOOST_TEST(contains(info.err, "the compressed stream is cut short: the file ends " +
                                              assbin_common::with_thousands(keep - 516) +
                                              " bytes into it (at byte " + std::to_string(keep) + ")"),
                       info.err);
            BOOST_TEST(!contains(info.err, "corrupt"));
            // tree walks the chunks the file still holds, then gives the same error.
            const auto tree = run_cli({"tree", cut.string()});
            BOOST_TEST(tree.exit_code == 2);
            BOOST_TEST(contains(tree.out, "MESH  vertices="));
            BOOST_TEST(contains(tree.err, "cut short"));
        }
    }
    // A damaged stream is corrupt, with where zlib stopped.
    std::string damaged = whole;
    damaged[518] = '\x07'; // the first deflate block: final, type 3 (reserved)
    write_text(dir / "damaged.assbin", damaged);
    const auto corrupt = run_cli({"info", (dir / "damaged.assbin").string()});
    BOOST_TEST(corrupt.exit_code == 2);
    BOOST_TEST(contains(corrupt.err, "the zlib stream is corrupt"), corrupt.err);
    BOOST_TEST(contains(corrupt.err, "invalid block type"));
}

BOOST_AUTO_TEST_CASE(cmp_says_new_and_missing_in_lines_summary_and_json) {
    const TempDir dir;
    fs::create_directories(dir / "actual");
    fs::create_directories(dir / "expected");
    fs::copy_file(fixture("SMD__triangle.smd.assbin"), dir / "actual" / "only_actual.assbin");
    fs::copy_file(fixture("SMD__triangle.smd.assbin"), dir / "expected" / "only_expected.assbin");
    const std::string actual = (dir / "actual").string(), expected = (dir / "expected").string();
    const auto text = run_cli({"cmp", actual, expected});
    BOOST_TEST(text.exit_code == 1);
    BOOST_TEST(contains(text.out, "new                          -  only_actual.assbin  (only in ACTUAL)"),
               text.out);
    BOOST_TEST(
        contains(text.out, "missing                      -  only_expected.assbin  (only in EXPECTED)"));
    BOOST_TEST(contains(text.out, "new (only in ACTUAL)                1"));
    BOOST_TEST(contains(text.out, "missing (only in EXPECTED)          1"));
    BOOST_TEST(!contains(text.out, "missing-"));
    const auto json = nlohmann::json::parse(run_cli({"cmp", actual, expected, "--json"}).out);
    BOOST_TEST(json["totals"]["new"].get<int>() == 1);
    BOOST_TEST(json["totals"]["missing"].get<int>() == 1);
    BOOST_TEST(json["pairs"][0]["status"].get<std::string>() == "new");
    BOOST_TEST(json["pairs"][1]["status"].get<std::string>() == "missing");
}

BOOST_AUTO_TEST_CASE(cmp_html_names_markers_and_lists_up_to_max_diffs) {
    const TempDir dir;
    fs::create_directories(dir / "actual");
    fs::create_directories(dir / "expected");
    write_text(dir / "actual" / "marker", "");
    fs::copy_file(fixture("X__anim_test.x.assbin"), dir / "expected" / "marker");
    fs::copy_file(fixture("X__anim_test.x.assbin"), dir / "actual" / "x.assbin");
    fs::copy_file(fixture("COB__dwarf.cob.assbin"), dir / "expected" / "x.assbin");
    const fs::path page = dir / "report.html";
    const auto result = run_cli({"cmp", (dir / "actual").string(), (dir / "expected").string(), "--max-diffs",
                                 "200", "--html", page.string()});
    BOOST_TEST(result.exit_code == 1);
    const std::string html = read_text(page);
    BOOST_TEST(contains(html, "expected-failure marker (empty file)"));
    BOOST_TEST(!contains(html, "not an ASSBIN dump"));
    size_t listed = 0;
    for (size_t at = html.find("<li>"); at != std::string::npos; at = html.find("<li>", at + 1))
        ++listed;
    BOOST_TEST(listed > 5u, "the page lists " << listed << " differences");
    BOOST_TEST(contains(html, "2 pairs: 0 same, 2 not"));
}

BOOST_AUTO_TEST_CASE(counts_agree_with_their_nouns) {
    const TempDir dir;
    const auto one =
        run_cli({"convert", fixture("SMD__triangle.smd.assbin"), "-o", (dir / "t.aem").string()});
    BOOST_TEST_REQUIRE(one.exit_code == 0);
    BOOST_TEST(contains(one.out, "3 vertices, 1 triangle, 2 bones, 1 animation, 0 warnings;"), one.out);
    BOOST_TEST(contains(one.out, "1 -> 1 mesh"));
    // A batch whose files are all up to date sums nothing it did not convert.
    fs::create_directories(dir / "in");
    fs::copy_file(fixture("SMD__triangle.smd.assbin"), dir / "in" / "a.assbin");
    fs::copy_file(fixture("X__anim_test.x.assbin"), dir / "in" / "b.assbin");
    BOOST_TEST_REQUIRE(run_cli({"convert", (dir / "in").string(), "--skip-existing"}).exit_code == 0);
    const auto again = run_cli({"convert", (dir / "in").string(), "--skip-existing"});
    BOOST_TEST(contains(again.out, "total: 0 converted, 2 up to date, 0 failed in "), again.out);
    BOOST_TEST(!contains(again.out, "geometry:"));
    const auto dumped = run_cli({"dump", (dir / "in").string(), (dir / "dumped").string()});
    BOOST_TEST(contains(dumped.out, "wrote 2 dumps and 0 empty markers under"), dumped.out);
}

BOOST_AUTO_TEST_CASE(work_through_many_files_shows_progress_on_a_terminal_only) {
    const TempDir dir;
    fs::create_directories(dir / "in");
    fs::copy_file(fixture("SMD__triangle.smd.assbin"), dir / "in" / "a.assbin");
    fs::copy_file(fixture("X__anim_test.x.assbin"), dir / "in" / "b.assbin");
    const std::string in = (dir / "in").string();
    const std::vector<std::vector<std::string>> commands = {
        {"convert", in, "--out-dir", (dir / "converted").string()},
        {"dump", in, (dir / "dumped").string()},
        {"render", in, "--sheet", (dir / "sheet.png").string(), "--size", "32x32"},
    };
    for (const auto& args : commands) {
        BOOST_TEST_CONTEXT(args.front()) {
            // Through a pipe (as in logs and CI): the per-file lines alone.
            const auto piped = run_cli(args);
            BOOST_TEST(piped.exit_code == 0);
            BOOST_TEST(!contains(piped.err, "2/2 files"));
            // On a terminal (script(1), Debian's essential bsdutils, gives the program one): a bar
            // redrawn in place.
            std::string command = "script -qec '" ASSBIN_CLI_PATH;
            for (const std::string& arg : args)
                command += " " + arg;
            command += "' /dev/null > " + (dir / "terminal.txt").string() + " 2>&1";
            BOOST_TEST_REQUIRE(std::system(command.c_str()) == 0);
            const std::string terminal = read_text(dir / "terminal.txt");
            BOOST_TEST(contains(terminal, "files, 0 failed"), terminal);
        }
    }
}

BOOST_AUTO_TEST_CASE(info_says_what_its_numbers_are) {
    const TempDir dir;
    std::string bytes = read_text(fixture("X__anim_test.x.assbin"));
    bytes.replace(56, 4, std::string(4, '\0')); // the header's compile flags (after the 44-byte stamp, 3 u32)
    write_text(dir / "x.assbin", bytes);
    const auto info = run_cli({"info", (dir / "x.assbin").string()});
    BOOST_TEST_REQUIRE(info.exit_code == 0);
    BOOST_TEST(contains(info.out, "compile flags 0x0 (none)"), info.out);
    BOOST_TEST(!contains(info.out, "()"));
    BOOST_TEST(contains(info.out, "2,520 vertices and 840 faces per mesh on average"));
    BOOST_TEST(contains(info.out, "duration (ticks)"));
    BOOST_TEST(contains(info.out, "seconds"));
}

BOOST_AUTO_TEST_CASE(convert_json_reports_each_file_with_what_it_dropped) {
    const TempDir dir;
    fs::create_directories(dir / "in");
    fs::copy_file(fixture("LWO__LWO2__box_2vc_1unused.lwo.z.assbin"), dir / "in" / "box.assbin");
    fs::copy_file(fixture("FBX__huesitos.fbx.assbin.regress"), dir / "in" / "short.assbin");
    const auto result = run_cli({"convert", (dir / "in").string(), "--json"});
    BOOST_TEST(result.exit_code == 1); // the shortened dump fails
    const auto json = nlohmann::json::parse(result.out);
    BOOST_TEST_REQUIRE(json["files"].size() == 2u);
    const auto& box = json["files"][0];
    BOOST_TEST(box["status"] == "converted");
    BOOST_TEST(box["dropped"]["colour_sets"] == 2);
    BOOST_TEST(box["dropped"]["uv_channels"] == 1);
    BOOST_TEST(box["dropped"]["points"] == 0);
    BOOST_TEST(box["warnings"].size() == 2u);
    BOOST_TEST(json["files"][1]["status"] == "failed");
    BOOST_TEST(contains(json["files"][1]["error"].get<std::string>(), "shortened"));
    BOOST_TEST(json["totals"]["converted"] == 1);
    BOOST_TEST(json["totals"]["failed"] == 1);
    BOOST_TEST(!contains(result.err, "warning:")); // the warnings are in the report
}

BOOST_AUTO_TEST_CASE(one_dump_named_twice_is_converted_once) {
    const TempDir dir;
    fs::create_directories(dir / "in");
    fs::copy_file(fixture("SMD__triangle.smd.assbin"), dir / "in" / "a.assbin");
    fs::copy_file(fixture("X__anim_test.x.assbin"), dir / "in" / "b.assbin");
    const std::string a = (dir / "in" / "a.assbin").string();
    const auto twice =
        run_cli({"convert", a, (dir / "in" / "." / "a.assbin").string(), "-o", (dir / "a.aem").string()});
    BOOST_TEST(twice.exit_code == 0, twice.err);
    BOOST_TEST(fs::exists(dir / "a.aem"));
    const auto folder_and_file =
        run_cli({"convert", (dir / "in").string(), a, "--out-dir", (dir / "out").string()});
    BOOST_TEST(folder_and_file.exit_code == 0, folder_and_file.err);
    BOOST_TEST(contains(folder_and_file.out, "total: 2 converted, 0 failed"), folder_and_file.out);
}

// info quotes names with the quote inside escaped as a control byte is: a source name `<img src=x>"\`
// shows as "<img src=x>\x22\" (before, "<img src=x>""\ ended where it seemed not to).
BOOST_AUTO_TEST_CASE(info_escapes_a_quote_inside_a_quoted_name) {
    const TempDir temp;
    const fs::path named = temp.path() / "named.assbin";
    const auto made = run_cli({"dump", fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin").string(), named.string(),
                               "--source-name", "<img src=x>\"\\"});
    BOOST_TEST_REQUIRE(made.exit_code == 0, made.err);
    const auto info = run_cli({"info", named.string()});
    BOOST_TEST(info.exit_code == 0, info.err);
    BOOST_TEST(contains(info.out, "source      \"<img src=x>\\x22\\\"\n"), info.out); // "<img src=x>\x22\"
}

// Mistyped words get a suggestion: a verb abbreviated or one typo away, an option with two letters
// swapped ("--fromat"); -o with several inputs says how to keep its format (--out-dir alone gives AEM).
BOOST_AUTO_TEST_CASE(mistyped_verbs_and_options_get_suggestions_that_keep_the_format) {
    const auto conv = run_cli({"conv"});
    BOOST_TEST(conv.exit_code == 2);
    BOOST_TEST(contains(conv.err, "unknown verb 'conv' (did you mean convert?)"), conv.err);
    BOOST_TEST(contains(run_cli({"rendr"}).err, "(did you mean render?)"));
    BOOST_TEST(!contains(run_cli({"xyz"}).err, "did you mean"));
    const std::string dump = fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin").string();
    BOOST_TEST(contains(run_cli({"convert", dump, "--fromat", "glb"}).err, "(did you mean --format?)"));
    BOOST_TEST(contains(run_cli({"convert", dump, "--quantise"}).err, "(did you mean --quantize?)"));
    const std::string other = fixture_path("assimp-5.2.5/COB__dwarf.cob.assbin").string();
    const auto several = run_cli({"convert", dump, other, "-o", "x.glb"});
    BOOST_TEST(several.exit_code == 2);
    BOOST_TEST(contains(several.err, "use --out-dir DIR --format glb to write one per dump"), several.err);
    BOOST_TEST(contains(run_cli({"convert", dump, other, "-o", "x.aem"}).err, "use --out-dir DIR to write"));
}

// docs/gltf.md's rule for -o: an extension names the format (any case), an unknown one is refused,
// a name without one takes --format (AEM without it).
BOOST_AUTO_TEST_CASE(an_output_without_an_extension_takes_format_as_the_docs_say) {
    const TempDir temp;
    const std::string dump = fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin").string();
    BOOST_TEST(run_cli({"convert", dump, "-o", (temp.path() / "plain").string()}).exit_code == 0);
    BOOST_TEST(read_text(temp.path() / "plain").starts_with("AEM"));
    BOOST_TEST(run_cli({"convert", dump, "-o", (temp.path() / "binary").string(), "--format", "GLB"}).exit_code == 0);
    BOOST_TEST(read_text(temp.path() / "binary").starts_with("glTF"));
    const auto text = run_cli({"convert", dump, "-o", (temp.path() / "x.txt").string()});
    BOOST_TEST(text.exit_code == 2);
    BOOST_TEST(contains(text.err, "the extension .txt names no format convert writes; use .aem, .glb or .gltf"));
    BOOST_TEST(!fs::exists(temp.path() / "x.txt"));
    const std::string page = read_text(fs::path(ASSBIN_CLI_REFERENCE_PATH).parent_path() / "gltf.md");
    BOOST_TEST(contains(page, "an `-o` without an extension takes `--format`"));
}

// --help fits the width it is read at (COLUMNS, or the terminal's): at 60 columns no line of any
// --help is wider, and every word is still there, in order.
BOOST_AUTO_TEST_CASE(help_fits_the_columns_it_is_given) {
    const auto words = [](const std::string& text) {
        std::istringstream in(text);
        std::string all, word;
        while (in >> word)
            all += word + ' ';
        return all;
    };
    for (const std::string verb : {"", "convert", "render", "cmp", "dump", "info", "tree", "aem-info"}) {
        const std::string command = std::string("COLUMNS=60 '") + ASSBIN_CLI_PATH + "' " + verb + " --help";
        FILE* pipe = ::popen(command.c_str(), "r");
        BOOST_REQUIRE(pipe != nullptr);
        std::string narrow;
        char buffer[4096];
        for (size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
            narrow.append(buffer, got);
        BOOST_TEST(::pclose(pipe) == 0);
        std::istringstream lines(narrow);
        for (std::string line; std::getline(lines, line);)
            BOOST_TEST(line.size() <= 60u, verb << ": " << line);
        const auto wide = run_cli(verb.empty() ? std::vector<std::string>{"--help"} : std::vector<std::string>{verb, "--help"});
        BOOST_TEST(words(narrow) == words(wide.out), verb);
    }
}

BOOST_AUTO_TEST_SUITE_END()

// Names stored escaped (a glTF URI that render follows, a texture name in convert's record) come back
// byte for byte: %XX of either case is its byte, a % without two hex digits stays.
BOOST_AUTO_TEST_SUITE(percent_decoding)

BOOST_AUTO_TEST_CASE(escapes_come_back_as_their_bytes) {
    using assbin_common::percent_decoded;
    BOOST_TEST(percent_decoded("box%20texture.png") == "box texture.png");
    BOOST_TEST(percent_decoded("%C3%A9t%c3%a9") == "\xC3\xA9t\xC3\xA9");
    BOOST_TEST(percent_decoded("100%") == "100%");
    BOOST_TEST(percent_decoded("%4") == "%4");
    BOOST_TEST(percent_decoded("%zz%41") == "%zzA");
    BOOST_TEST(percent_decoded("%00").size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
