// What read.cpp and write.cpp dispatch to for the 2025 layout, and what both layouts must hold
// for a write to say exactly what the model says.
#pragma once

#include <aem/format.hpp>
#include <aem/model.hpp>
#include <aem/validate.hpp>

#include <cstddef>
#include <ostream>
#include <span>
#include <vector>

namespace aem::detail {

// The 2025 header's counts; `header` holds at least kHeaderSize2025 bytes.
Counts2025 read_counts_2025(std::span<const std::byte> header);

// A whole 2025 file whose size its counts were checked to imply.
Model read_model_2025(std::span<const std::byte> bytes);

// The sections of a 2025 file, after check_layout_expressible.
void write_model_2025(const Model& model, std::ostream& out);

// Throws Error (LayoutMismatch) when the model holds something its layout cannot store, so that a
// write never drops information: in the 2024 layout, texels, texture sizes, material types or joint
// names; in the 2025 one, texture file names, extra bone indices, animations whose sequences do
// not start at animation × joints, or tracks whose runs do not follow each other.
void check_layout_expressible(const Model& model);

// Appends the 2025 layout's own invariants' violations (validate_2025.cpp).
void check_2025_invariants(const Model& model, std::vector<Violation>& violations);

} // namespace aem::detail
