// MATERIAL and MATPROP chunks (ASSBIN-FORMAT.md §4.5). Property data is kept as stored: shortened
// dumps keep it whole, and a string's terminator byte is not always 0.
#include "chunk_parsers.hpp"
#include "chunk_walker.hpp"

#include <assbin/format.hpp>

namespace assbin::detail {

namespace {

MaterialProperty read_property(ByteReader& material, ReadContext& context, size_t index) {
    const ChunkHead head = next_chunk(material, kChunkMaterialProperty);
    ChunkScope scope(context, indexed("property", index), head);
    ByteReader reader = material.child(head.length);
    MaterialProperty property;
    property.key = reader.string("property key");
    property.semantic = reader.u32("property semantic");
    property.index = reader.u32("property index");
    const uint32_t data_length = reader.u32("property data length");
    property.type = reader.u32("property type");
    reader.bytes(data_length, property.data, "property data");
    scope.field("key", property.key);
    scope.field("semantic", property.semantic);
    scope.field("index", property.index);
    scope.field("type", property.type);
    scope.field("bytes", data_length);
    skip_trailing_chunks(reader, "MATPROP");
    scope.finish(reader.position());
    return property;
}

} // namespace

Material read_material(ByteReader& scene, ReadContext& context, size_t index) {
    const ChunkHead head = next_chunk(scene, kChunkMaterial);
    ChunkScope scope(context, indexed("material", index), head);
    ByteReader reader = scene.child(head.length);
    const uint32_t count = reader.u32("property count");
    reader.require_records(count, kChunkHeadSize, "MATPROP chunks");
    Material material;
    context.charge_array<MaterialProperty>(count, reader.offset());
    material.properties.reserve(count);
    for (uint32_t i = 0; i < count; ++i)
        material.properties.push_back(read_property(reader, context, i));
    scope.field("name", material.name());
    scope.field("properties", count);
    skip_trailing_chunks(reader, "MATERIAL");
    scope.finish(reader.position());
    return material;
}

} // namespace assbin::detail
