// MATERIAL and MATPROP chunks (ASSBIN-FORMAT.md §4.5): the mirror of read_material.cpp. Property
// data is written as it is held (shortened dumps keep it whole too).
#include "write_context.hpp"

#include <assbin/format.hpp>

#include <limits>

namespace assbin::detail {

namespace {

void write_property(WriteContext& context, const MaterialProperty& property, size_t index) {
    WritePathScope scope(context, indexed_segment("property", index));
    if (property.data.size() > std::numeric_limits<uint32_t>::max()) {
        context.fail("the property data is " + std::to_string(property.data.size()) +
                     " bytes; its length has 32 bits");
    }
    ByteWriter& out = context.out;
    const size_t mark = out.begin_chunk(kChunkMaterialProperty);
    out.string(property.key, "the property key");
    out.u32(property.semantic);
    out.u32(property.index);
    out.u32(static_cast<uint32_t>(property.data.size()));
    out.u32(property.type);
    out.bytes(property.data);
    out.end_chunk(mark);
}

} // namespace

void write_material(WriteContext& context, const Material& material, size_t index) {
    WritePathScope scope(context, indexed_segment("material", index));
    if (material.properties.size() > std::numeric_limits<uint32_t>::max()) {
        context.fail("too many properties for a 32-bit count");
    }
    ByteWriter& out = context.out;
    const size_t mark = out.begin_chunk(kChunkMaterial);
    out.u32(static_cast<uint32_t>(material.properties.size()));
    for (size_t i = 0; i < material.properties.size(); ++i)
        write_property(context, material.properties[i], i);
    out.end_chunk(mark);
}

} // namespace assbin::detail
