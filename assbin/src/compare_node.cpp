// The node tree: children matched by position, nodes named by their path of names from the root
// ("scene/node[RootNode/Arm]/transform[1][3]"), metadata matched by key.
#include "compare_context.hpp"

#include <stdexcept>
#include <unordered_map>
#include <variant>

namespace assbin::detail {

namespace {

// A child's label within its parent: its name, or "name#i" when the name is empty or repeats
// among its siblings (so every label names one node).
std::vector<std::string> child_labels(const std::vector<Node>& nodes, const Node& parent) {
    std::unordered_map<std::string_view, size_t> uses;
    for (const uint32_t child : parent.children)
        ++uses[nodes[child].name];
    std::vector<std::string> labels;
    labels.reserve(parent.children.size());
    for (size_t i = 0; i < parent.children.size(); ++i) {
        std::string label = nodes[parent.children[i]].name;
        if (label.empty() || uses[label] > 1) {
            label += '#';
            label += std::to_string(i);
        }
        labels.push_back(std::move(label));
    }
    return labels;
}

std::string metadata_text(const MetadataValue& value) {
    if (const bool* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
    if (const int32_t* i = std::get_if<int32_t>(&value)) return std::to_string(*i);
    if (const uint64_t* u = std::get_if<uint64_t>(&value)) return std::to_string(*u);
    if (const float* f = std::get_if<float>(&value)) return format_number(*f);
    if (const double* d = std::get_if<double>(&value)) return format_number(*d);
    if (const std::string* text = std::get_if<std::string>(&value)) return format_text(*text);
    if (const Vec3* v = std::get_if<Vec3>(&value)) {
        std::string text = "(";
        text += format_number((*v)[0]) + ", " + format_number((*v)[1]) + ", " + format_number((*v)[2]) + ")";
        return text;
    }
    return "(no value)";
}

void compare_metadata_value(Comparer& comparer, const std::string& where, const MetadataValue& actual,
                            const MetadataValue& expected) {
    if (actual.index() != expected.index()) {
        comparer.report(where, metadata_text(expected), metadata_text(actual));
        return;
    }
    if (const float* f = std::get_if<float>(&actual))
        comparer.real(where, *f, std::get<float>(expected));
    else if (const double* d = std::get_if<double>(&actual))
        comparer.real(where, *d, std::get<double>(expected));
    else if (const Vec3* v = std::get_if<Vec3>(&actual))
        comparer.vec3(where, *v, std::get<Vec3>(expected));
    else if (const std::string* s = std::get_if<std::string>(&actual)) {
        comparer.text(where, *s, std::get<std::string>(expected));
    } else if (actual != expected) {
        comparer.report(where, metadata_text(expected), metadata_text(actual));
    }
}

// Entries are matched by key (the first unmatched entry with that key), in EXPECTED's order, then
// ACTUAL's extra entries.
void compare_metadata(Comparer& comparer, const std::vector<MetadataEntry>& actual,
                      const std::vector<MetadataEntry>& expected) {
    std::vector<bool> used(actual.size(), false);
    for (const MetadataEntry& entry : expected) {
        std::string where = "/metadata[" + entry.key + "]";
        size_t match = 0;
        while (match < actual.size() && (used[match] || actual[match].key != entry.key))
            ++match;
        if (match == actual.size()) {
            comparer.report(where, metadata_text(entry.value), "(absent)");
            continue;
        }
        used[match] = true;
        if (!comparer.exact(where + ".type", actual[match].type, entry.type)) continue;
        compare_metadata_value(comparer, where, actual[match].value, entry.value);
    }
    for (size_t i = 0; i < actual.size(); ++i) {
        if (!used[i])
            comparer.report("/metadata[" + actual[i].key + "]", "(absent)", metadata_text(actual[i].value));
    }
}

void compare_node_fields(Comparer& comparer, const Node& actual, const Node& expected) {
    comparer.text("/name", actual.name, expected.name);
    comparer.matrix("/transform", actual.transform, expected.transform);
    if (comparer.exact("/meshes.count", actual.meshes.size(), expected.meshes.size())) {
        comparer.u32_array("/meshes", actual.meshes, expected.meshes, false);
    }
    if (comparer.compare_metadata) compare_metadata(comparer, actual.metadata, expected.metadata);
    comparer.exact("/children.count", actual.children.size(), expected.children.size());
}

struct PendingNode {
    uint32_t actual = 0;
    uint32_t expected = 0;
    std::string label; // "RootNode/Arm"
};

void check_child(const std::vector<Node>& nodes, uint32_t child, std::vector<bool>& seen, const char* side) {
    if (child >= nodes.size() || seen[child]) {
        throw std::invalid_argument(std::string("the ") + side + " scene's nodes do not form a tree (child " +
                                    std::to_string(child) + " of " + std::to_string(nodes.size()) +
                                    " nodes)");
    }
    seen[child] = true;
}

} // namespace

void compare_nodes(Comparer& comparer, const std::vector<Node>& actual, const std::vector<Node>& expected) {
    if (!comparer.presence("/node", !actual.empty(), !expected.empty()) || expected.empty()) return;
    std::vector<bool> seen_actual(actual.size(), false), seen_expected(expected.size(), false);
    seen_actual[0] = seen_expected[0] = true;
    std::vector<PendingNode> stack{{0, 0, expected[0].name.empty() ? "#0" : expected[0].name}};
    while (!stack.empty()) {
        const PendingNode pending = std::move(stack.back());
        stack.pop_back();
        const Node& a = actual[pending.actual];
        const Node& e = expected[pending.expected];
        {
            Comparer::Scope scope(comparer, "/node[" + pending.label + "]");
            compare_node_fields(comparer, a, e);
        }
        const size_t common = std::min(a.children.size(), e.children.size());
        const std::vector<std::string> labels = child_labels(expected, e);
        for (size_t i = common; i-- > 0;) { // reversed, so that children are visited in order
            check_child(actual, a.children[i], seen_actual, "actual");
            check_child(expected, e.children[i], seen_expected, "expected");
            stack.push_back({a.children[i], e.children[i], pending.label + "/" + labels[i]});
        }
    }
}

} // namespace assbin::detail
