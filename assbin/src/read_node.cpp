// NODE chunks (ASSBIN-FORMAT.md §4.2): read iteratively with an explicit stack, so a deep chain
// costs heap, not call stack, and the depth limit is a policy rather than a crash guard.
#include "chunk_parsers.hpp"
#include "chunk_walker.hpp"

#include <assbin/format.hpp>

#include <optional>
#include <utility>

namespace assbin::detail {

namespace {

MetadataValue read_metadata_value(ByteReader& reader, uint16_t type) {
    switch (static_cast<MetadataType>(type)) {
    case MetadataType::Bool:
        return reader.u8("metadata bool") != 0;
    case MetadataType::Int32:
        return reader.i32("metadata int32");
    case MetadataType::UInt64:
        return reader.u64("metadata uint64");
    case MetadataType::Float:
        return reader.f32("metadata float"); // f32 even in double builds
    case MetadataType::Double:
        return reader.f64("metadata double");
    case MetadataType::String:
        return reader.string("metadata string");
    case MetadataType::Vector3:
        return reader.vec3("metadata vector");
    default:
        return std::monostate{}; // types 7 and up are written without a value
    }
}

void read_metadata(ByteReader& reader, uint32_t count, std::vector<MetadataEntry>& out) {
    reader.context().charge_array<MetadataEntry>(count, reader.offset());
    out.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        MetadataEntry entry;
        entry.key = reader.string("metadata key");
        entry.type = reader.u16("metadata type");
        entry.value = read_metadata_value(reader, entry.type);
        out.push_back(std::move(entry));
    }
}

struct NodeFrame {
    ByteReader reader;
    uint32_t node = 0;
    uint32_t children_left = 0;
    uint32_t children_read = 0;
    uint32_t metadata_count = 0;
    size_t trace_record = SIZE_MAX;
};

// Reads the next NODE chunk's own fields and pushes its frame.
void enter_node(ByteReader& parent, ReadContext& context, std::vector<Node>& nodes,
                std::vector<NodeFrame>& stack, int32_t parent_index, std::string segment) {
    if (stack.size() >= context.options->limits.max_node_depth) {
        const uint32_t depth = context.options->limits.max_node_depth;
        parent.fail(ErrorCode::LimitExceeded,
                    "nodes nest deeper than " + std::to_string(depth) + (depth == 1 ? " level" : " levels") +
                        ", the reader's node-depth limit",
                    Limit::NodeDepth);
    }
    const ChunkHead head = next_chunk(parent, kChunkNode);
    context.path.push_back(std::move(segment));
    NodeFrame frame{parent.child(head.length)};
    frame.trace_record = trace_enter(context, head);
    ByteReader& reader = frame.reader;

    Node node;
    node.parent = parent_index;
    node.name = reader.string("node name");
    node.transform = reader.matrix("node transformation");
    frame.children_left = reader.u32("child count");
    const uint32_t mesh_count = reader.u32("mesh count");
    frame.metadata_count = context.node_metadata ? reader.u32("metadata count") : 0;
    reader.records(mesh_count, node.meshes, "mesh indices");
    reader.require_records(frame.children_left, kChunkHeadSize, "child NODE chunks");
    reader.require_records(frame.metadata_count, 6, "metadata entries");

    trace_field(context, frame.trace_record, "name", node.name);
    trace_field(context, frame.trace_record, "children", std::to_string(frame.children_left));
    trace_field(context, frame.trace_record, "meshes", std::to_string(mesh_count));
    if (context.node_metadata)
        trace_field(context, frame.trace_record, "metadata", std::to_string(frame.metadata_count));

    // The node, its index in the parent's children, and its stack frame while it is open.
    context.charge(sizeof(Node) + sizeof(uint32_t) + sizeof(NodeFrame), head.offset);
    frame.node = static_cast<uint32_t>(nodes.size());
    if (parent_index >= 0) nodes[static_cast<size_t>(parent_index)].children.push_back(frame.node);
    nodes.push_back(std::move(node));
    stack.push_back(std::move(frame));
}

// Metadata comes after the child chunks; then the node must end exactly at its chunk end.
void leave_node(ReadContext& context, std::vector<Node>& nodes, std::vector<NodeFrame>& stack) {
    NodeFrame& frame = stack.back();
    read_metadata(frame.reader, frame.metadata_count, nodes[frame.node].metadata);
    if (!frame.reader.at_end()) skip_trailing_chunks(frame.reader, "NODE");
    trace_leave(context, frame.trace_record, frame.reader.position());
    context.path.pop_back();
    stack.pop_back();
}

// Reads the tree with the layout set in `context`, advancing `scene` past the root chunk.
std::vector<Node> read_tree_with_current_layout(ByteReader& scene, ReadContext& context) {
    std::vector<Node> nodes;
    std::vector<NodeFrame> stack;
    enter_node(scene, context, nodes, stack, -1, "node");
    while (!stack.empty()) {
        NodeFrame& top = stack.back();
        if (top.children_left == 0) {
            leave_node(context, nodes, stack);
            continue;
        }
        --top.children_left;
        const uint32_t ordinal = top.children_read++;
        enter_node(top.reader, context, nodes, stack, static_cast<int32_t>(top.node),
                   indexed("node", ordinal));
    }
    return nodes;
}

struct LayoutTrial {
    bool node_metadata;
    bool mixed_double;
};

} // namespace

namespace {

// Only the 0x20 compile flag can mean a double build; the root NODE's length then tells the 5.2.5+
// mixed layout (128-byte matrices) from the single one (§7 step 2).
std::vector<LayoutTrial> layout_trials(bool double_flag) {
    std::vector<LayoutTrial> trials;
    if (double_flag) trials.push_back({true, true});
    trials.push_back({true, false});
    trials.push_back({false, false});
    return trials;
}

// What one layout trial read, kept apart from the caller's context until it is accepted.
struct TrialOutcome {
    LayoutTrial trial;
    std::vector<Node> nodes;
    std::vector<ChunkRecord> trace;
    std::vector<SkippedChunk> skipped;
    ByteReader after;
    uint64_t allocated = 0;
};

// The accepted trial becomes the context's: its layout, allocation, trace and skipped chunks.
void adopt(ReadContext& context, TrialOutcome& accepted, std::vector<ChunkRecord>* caller_trace,
           std::vector<SkippedChunk>* caller_skipped) {
    context.node_metadata = accepted.trial.node_metadata;
    context.mixed_double = accepted.trial.mixed_double;
    context.allocated = accepted.allocated;
    if (caller_trace) caller_trace->insert(caller_trace->end(), accepted.trace.begin(), accepted.trace.end());
    if (caller_skipped)
        caller_skipped->insert(caller_skipped->end(), accepted.skipped.begin(), accepted.skipped.end());
}

} // namespace

std::vector<Node> read_node_tree(ByteReader& scene, ReadContext& context, bool double_flag) {
    // A trial that reads without stepping over unknown chunks wins over one that needs to.
    std::vector<ChunkRecord>* const caller_trace = context.trace;
    std::vector<SkippedChunk>* const caller_skipped = context.skipped;
    const size_t path_depth = context.path.size();
    const uint64_t allocated_before = context.allocated; // a failed trial's nodes are freed
    std::optional<TrialOutcome> accepted;
    std::optional<ParseError> furthest_error;
    std::vector<ChunkRecord> furthest_trace;
    for (const LayoutTrial& trial : layout_trials(double_flag)) {
        TrialOutcome outcome{trial, {}, {}, {}, scene};
        context.node_metadata = trial.node_metadata;
        context.mixed_double = trial.mixed_double;
        context.trace = caller_trace ? &outcome.trace : nullptr;
        context.skipped = &outcome.skipped;
        context.allocated = allocated_before;
        try {
            outcome.nodes = read_tree_with_current_layout(outcome.after, context);
            outcome.allocated = context.allocated;
        } catch (const ParseError& error) {
            // A limit is a policy, not a layout mismatch: no other trial should hide it.
            if (error.code() == ErrorCode::LimitExceeded) {
                context.trace = caller_trace;
                if (caller_trace)
                    caller_trace->insert(caller_trace->end(), outcome.trace.begin(), outcome.trace.end());
                throw;
            }
            context.path.resize(path_depth);
            if (!furthest_error || error.offset() > furthest_error->offset()) {
                furthest_error = error;
                furthest_trace = std::move(outcome.trace);
            }
            continue;
        }
        if (!accepted || (!accepted->skipped.empty() && outcome.skipped.empty()))
            accepted = std::move(outcome);
        if (accepted->skipped.empty()) break;
    }
    context.trace = caller_trace;
    context.skipped = caller_skipped;
    if (!accepted) {
        if (caller_trace)
            caller_trace->insert(caller_trace->end(), furthest_trace.begin(), furthest_trace.end());
        throw *furthest_error;
    }
    adopt(context, *accepted, caller_trace, caller_skipped);
    scene = accepted->after;
    return std::move(accepted->nodes);
}

} // namespace assbin::detail
