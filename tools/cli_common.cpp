#include "cli_common.hpp"

#include <limit_words.hpp>

#include "help_width.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

namespace po = boost::program_options;

namespace assbin::cli {

bool outputs_allowed(const assbin_common::InputFiles& inputs,
                     const std::vector<std::filesystem::path>& outputs, assbin_common::Content writes,
                     const std::string& verb) {
    for (const std::filesystem::path& output : outputs) {
        try {
            assbin_common::refuse_input_as_output(output, inputs);
            if (assbin_common::output_kind(output) == assbin_common::OutputKind::File)
                assbin_common::refuse_other_content(output, writes, verb);
        } catch (const assbin_common::OutputRefused& refused) {
            print_error(refused.what());
            return false;
        }
    }
    return true;
}

ReportsOffStandardOutput::ReportsOffStandardOutput(const std::vector<std::filesystem::path>& outputs) {
    for (const std::filesystem::path& output : outputs) {
        if (!output.empty() && assbin_common::standard_stream_fd(output) == 1) {
            std::cout.flush();
            saved_ = std::cout.rdbuf(std::cerr.rdbuf());
            return;
        }
    }
}

ReportsOffStandardOutput::~ReportsOffStandardOutput() {
    if (saved_) std::cout.rdbuf(saved_);
}

void print_error(std::string_view what) {
    std::cerr << "assbin: error: " << what << "\n";
}

namespace {

// "; --max-inflate-ratio raises it (a multiple of the compressed stream's size)", or "".
std::string limit_option_hint(Limit limit) {
    const std::string option = assbin_common::limit_option(limit);
    if (option.empty()) return {};
    return "; " + option + " raises it (" + std::string(assbin_common::limit_words(limit).unit) + ")";
}

// What follows the reader's sentence: the option that raises a limit, the verb that reads the file.
std::string error_hints(std::string_view file, const ParseError& error) {
    std::string hints(limit_option_hint(error.limit()));
    if (error.code() == ErrorCode::NotAssbin) hints += other_verb_hint(std::string(file), "");
    return hints;
}

} // namespace

std::string parse_error_text(std::string_view file, const ParseError& error) {
    return error.what() + error_hints(file, error);
}

void write_error_json(JsonWriter& json, std::string_view file, const ParseError* error) {
    json.key("error");
    if (!error) {
        json.null();
        return;
    }
    json.begin_object();
    json.field("code", error_code_name(error->code()));
    json.field("offset", error->offset());
    json.field("path", error->chunk_path());
    json.field("message", error->message() + error_hints(file, *error));
    json.key("limit");
    if (error->limit() == Limit::None)
        json.null();
    else
        json.value(assbin_common::limit_option(error->limit()));
    json.end_object();
}

void print_error_json(std::string_view file, const ParseError& error) {
    JsonWriter json(std::cout);
    json.begin_object();
    json.field("file", file);
    write_error_json(json, file, &error);
    json.end_object();
    json.finish();
}

void print_parse_error(std::string_view file, const ParseError& error) {
    print_error(std::string(file) + ": " + parse_error_text(file, error));
}

int usage_error(std::string_view what, std::string_view usage) {
    print_error(std::string(what) + "\nusage: " + std::string(usage.substr(0, usage.find("\n\n"))));
    return kExitUnreadable;
}

namespace {

// "FILE", "ACTUAL and EXPECTED", "IN, OUT and X".
std::string joined_words(const std::vector<std::string>& words) {
    std::string out;
    for (size_t i = 0; i < words.size(); ++i) {
        if (i > 0) out += i + 1 == words.size() ? " and " : ", ";
        out += words[i];
    }
    return out;
}

bool is_count_option(const po::option_description& option) {
    const po::value_semantic* semantic = option.semantic().get();
    return dynamic_cast<const po::typed_value<unsigned long>*>(semantic) != nullptr ||
           dynamic_cast<const po::typed_value<unsigned int>*>(semantic) != nullptr ||
           dynamic_cast<const po::typed_value<unsigned long long>*>(semantic) != nullptr;
}

constexpr const char* kExtraOperands = "extra-operands";

} // namespace

// Edit distance of two short names (for "did you mean"), a swap of two neighbours counting as one
// edit (optimal string alignment): "--fromat" is one typo away from "--format", as "--quantise" is
// from "--quantize".
size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

std::vector<std::string> close_names(std::string_view name, const std::vector<std::string>& candidates) {
    std::vector<std::string> close;
    for (const std::string& candidate : candidates)
        if (!name.empty() && candidate.starts_with(name)) close.push_back(candidate);
    if (!close.empty()) return close;
    for (const std::string& candidate : candidates)
        if (edit_distance(name, candidate) <= std::max<size_t>(1, name.size() / 4)) close.push_back(candidate);
    return close;
}

namespace {

// "--epsilon or --expected", "--a, --b or --c".
std::string either_of(const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
        out += "--" + names[i];
    }
    return out;
}

// Long options are matched against the options --help shows, and only those: an exact name passes,
// a prefix of exactly one is completed, and anything else is a usage error that names only shown
// options (Boost would also match the hidden ones that carry the operands, and say so). Tokens
// after "--" are operands. Returns the error, or nothing once `args` is rewritten.
std::optional<std::string> resolve_long_options(std::vector<std::string>& args,
                                                const po::options_description& shown, std::string_view verb) {
    std::vector<std::string> names;
    for (const auto& option : shown.options())
        if (!option->long_name().empty()) names.push_back(option->long_name());
    for (std::string& token : args) {
        if (token == "--") break;
        if (token.size() < 3 || !token.starts_with("--")) continue;
        const size_t equals = token.find('=');
        const std::string name =
            token.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
        const std::string rest = equals == std::string::npos ? "" : token.substr(equals);
        if (std::find(names.begin(), names.end(), name) != names.end()) continue;
        std::vector<std::string> matches;
        for (const std::string& candidate : names)
            if (candidate.starts_with(name)) matches.push_back(candidate);
        if (matches.size() == 1) {
            token = "--" + matches.front() + rest;
            continue;
        }
        if (matches.size() > 1)
            return "option '--" + name + "' is ambiguous: it could be " + either_of(matches);
        std::vector<std::string> close;
        for (const std::string& candidate : names)
            if (edit_distance(name, candidate) <= std::max<size_t>(1, name.size() / 4))
                close.push_back(candidate);
        return "unknown option '--" + name + "'" +
               (close.empty() ? "" : " (did you mean " + either_of(close) + "?)") + "; 'assbin " +
               std::string(verb) + " --help' lists the options";
    }
    return std::nullopt;
}

} // namespace

std::optional<po::variables_map> parse_verb_arguments(const std::vector<std::string>& given,
                                                      const VerbSyntax& syntax,
                                                      const po::options_description& options,
                                                      int* exit_code) {
    // Operands are hidden options fed by position: --help lists only what a user types as an option.
    po::options_description hidden;
    po::positional_options_description positional;
    bool unbounded = false;
    for (const Operand& operand : syntax.operands) {
        if (operand.many) {
            hidden.add_options()(operand.option.c_str(), po::value<std::vector<std::string>>());
            positional.add(operand.option.c_str(), -1);
            unbounded = true;
        } else {
            hidden.add_options()(operand.option.c_str(), po::value<std::string>());
            positional.add(operand.option.c_str(), 1);
        }
    }
    if (!unbounded) { // one operand too many is named, not "too many positional options"
        hidden.add_options()(kExtraOperands, po::value<std::vector<std::string>>());
        positional.add(kExtraOperands, -1);
    }
    po::options_description all;
    all.add(options).add(hidden);
    const std::string verb(syntax.verb);
    const auto fail = [&](const std::string& what) {
        *exit_code = usage_error(what, syntax.usage);
        return std::nullopt;
    };
    std::vector<std::string> args = given;
    if (const std::optional<std::string> wrong = resolve_long_options(args, options, syntax.verb))
        return fail(*wrong);
    po::variables_map vm;
    try {
        const po::parsed_options parsed =
            po::command_line_parser(args).options(all).positional(positional).run();
        for (const po::option& option : parsed.options) {
            const po::option_description* described = options.find_nothrow(option.string_key, false);
            if (!described || !is_count_option(*described)) continue;
            for (const std::string& token : option.value) {
                if (!token.empty() && token[0] == '-') {
                    return fail("--" + option.string_key + " takes a whole number, not '" + token + "'");
                }
            }
        }
        po::store(parsed, vm);
        if (vm.count("help")) {
            std::ostringstream help;
            help << "usage: " << syntax.usage << "\n\n" << options << "\n" << kExitCodeTable;
            std::cout << fit_to_width(help.str(), help_width());
            *exit_code = kExitOk;
            return std::nullopt;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        return fail(e.what());
    }
    if (vm.count(kExtraOperands)) {
        const Operand& last = syntax.operands.back();
        std::vector<std::string> words;
        for (const Operand& operand : syntax.operands)
            words.push_back(operand.word);
        const std::string count = syntax.operands.size() == 1 ? "one " + last.word : joined_words(words);
        return fail(verb + " takes " + count + "; '" +
                    vm[kExtraOperands].as<std::vector<std::string>>().front() + "' is one too many");
    }
    std::vector<std::string> missing;
    for (const Operand& operand : syntax.operands) {
        if (operand.required && !vm.count(operand.option)) missing.push_back(operand.word);
    }
    if (!missing.empty()) {
        if (missing.size() == 1) {
            const bool vowel =
                std::string_view("AEIOU").find(missing.front().front()) != std::string_view::npos;
            return fail(verb + " needs " + (vowel ? "an " : "a ") + missing.front());
        }
        return fail(verb + " needs " + joined_words(missing));
    }
    return vm;
}

void make_output_folder(const std::filesystem::path& output) {
    if (!output.has_parent_path()) return;
    std::error_code not_made;
    std::filesystem::create_directories(output.parent_path(), not_made);
}

std::string other_verb_hint(const std::string& file, std::string_view verb) {
    char start[19] = {};
    std::ifstream in(file, std::ios::binary);
    in.read(start, sizeof start);
    const std::string_view bytes(start, static_cast<size_t>(in.gcount()));
    if (verb != "aem-info" && verb != "render" && bytes.starts_with("AEM"))
        return " (it is an AEM model: 'assbin aem-info' reads it)";
    if (verb == "aem-info" && bytes.starts_with("ASSIMP.binary-dump"))
        return " (it is an ASSBIN dump: 'assbin info' reads it)";
    return "";
}

} // namespace assbin::cli
