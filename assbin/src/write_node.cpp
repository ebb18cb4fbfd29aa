// NODE chunks (ASSBIN-FORMAT.md §4.2), in the metadata layout every writer since 5.1 uses: the
// mirror of read_node.cpp. Written with an explicit stack, so a deep chain costs heap, not stack.
#include "write_context.hpp"

#include <assbin/format.hpp>

#include <limits>
#include <variant>

namespace assbin::detail {

namespace {

const char* metadata_type_name(uint16_t type) {
    switch (static_cast<MetadataType>(type)) {
    case MetadataType::Bool:
        return "bool";
    case MetadataType::Int32:
        return "int32";
    case MetadataType::UInt64:
        return "uint64";
    case MetadataType::Float:
        return "float";
    case MetadataType::Double:
        return "double";
    case MetadataType::String:
        return "string";
    case MetadataType::Vector3:
        return "vector";
    default:
        return "valueless";
    }
}

// The value's alternative must be the one its type stores; types 7 and up store no value (§4.2).
bool value_fits_type(const MetadataValue& value, uint16_t type) {
    switch (static_cast<MetadataType>(type)) {
    case MetadataType::Bool:
        return std::holds_alternative<bool>(value);
    case MetadataType::Int32:
        return std::holds_alternative<int32_t>(value);
    case MetadataType::UInt64:
        return std::holds_alternative<uint64_t>(value);
    case MetadataType::Float:
        return std::holds_alternative<float>(value);
    case MetadataType::Double:
        return std::holds_alternative<double>(value);
    case MetadataType::String:
        return std::holds_alternative<std::string>(value);
    case MetadataType::Vector3:
        return std::holds_alternative<Vec3>(value);
    default:
        return std::holds_alternative<std::monostate>(value);
    }
}

void write_metadata_value(ByteWriter& out, const MetadataValue& value) {
    if (const bool* flag = std::get_if<bool>(&value))
        out.u8(*flag ? 1 : 0);
    else if (const int32_t* i = std::get_if<int32_t>(&value))
        out.i32(*i);
    else if (const uint64_t* u = std::get_if<uint64_t>(&value))
        out.u64(*u);
    else if (const float* f = std::get_if<float>(&value))
        out.f32(*f); // f32 in every build
    else if (const double* d = std::get_if<double>(&value))
        out.f64(*d);
    else if (const std::string* text = std::get_if<std::string>(&value))
        out.string(*text, "a metadata string");
    else if (const Vec3* v = std::get_if<Vec3>(&value))
        out.vec3(*v);
}

void write_metadata(WriteContext& context, const std::vector<MetadataEntry>& metadata) {
    for (size_t i = 0; i < metadata.size(); ++i) {
        const MetadataEntry& entry = metadata[i];
        if (!value_fits_type(entry.value, entry.type)) {
            WritePathScope scope(context, indexed_segment("metadata", i));
            context.fail("the entry '" + entry.key + "' has type " + std::to_string(entry.type) + " (" +
                         metadata_type_name(entry.type) + "), but its value holds another kind");
        }
        context.out.string(entry.key, "a metadata key");
        context.out.u16(entry.type);
        write_metadata_value(context.out, entry.value);
    }
}

struct NodeFrame {
    uint32_t node = 0;
    size_t mark = 0;
    size_t next_child = 0;
};

// Writes a node's own fields (everything before its child chunks) and pushes its frame.
void enter_node(WriteContext& context, const std::vector<Node>& nodes, uint32_t index,
                std::vector<NodeFrame>& stack) {
    const Node& node = nodes[index];
    ByteWriter& out = context.out;
    if (node.children.size() > std::numeric_limits<uint32_t>::max() ||
        node.meshes.size() > std::numeric_limits<uint32_t>::max() ||
        node.metadata.size() > std::numeric_limits<uint32_t>::max()) {
        context.fail("the node has more children, meshes or metadata entries than a 32-bit count holds");
    }
    NodeFrame frame{index, out.begin_chunk(kChunkNode), 0};
    out.string(node.name, "the node name");
    out.matrix(node.transform);
    out.u32(static_cast<uint32_t>(node.children.size()));
    out.u32(static_cast<uint32_t>(node.meshes.size()));
    out.u32(static_cast<uint32_t>(node.metadata.size()));
    out.records(std::span<const uint32_t>(node.meshes));
    stack.push_back(frame);
}

} // namespace

std::string indexed_segment(const char* name, size_t index) {
    return std::string(name) + "[" + std::to_string(index) + "]";
}

void write_node_tree(WriteContext& context, const std::vector<Node>& nodes) {
    if (nodes.empty()) context.fail("the scene has no root node; every dump has one (nodes[0])");
    std::vector<bool> written(nodes.size(), false);
    std::vector<NodeFrame> stack;
    context.path.push_back("node");
    written[0] = true;
    enter_node(context, nodes, 0, stack);
    while (!stack.empty()) {
        NodeFrame& top = stack.back();
        const Node& node = nodes[top.node];
        if (top.next_child == node.children.size()) {
            write_metadata(context, node.metadata); // after the child chunks (§4.2)
            context.out.end_chunk(top.mark);
            context.path.pop_back();
            stack.pop_back();
            continue;
        }
        const size_t ordinal = top.next_child++;
        const uint32_t child = node.children[ordinal];
        context.path.push_back(indexed_segment("node", ordinal));
        if (child >= nodes.size()) {
            context.fail("the child refers to node " + std::to_string(child) + ", but the scene has " +
                         std::to_string(nodes.size()) + " nodes");
        }
        if (written[child]) {
            context.fail("node " + std::to_string(child) +
                         " is reached a second time: the children do not form a tree");
        }
        written[child] = true;
        enter_node(context, nodes, child, stack);
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (!written[i]) {
            context.fail("node " + std::to_string(i) + " ('" + nodes[i].name +
                         "') is not reached from the root, so a dump cannot store it");
        }
    }
}

} // namespace assbin::detail
