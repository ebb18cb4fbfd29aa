// Content checks that the reader deliberately does not make: real dumps carry broken data Assimp
// wrote anyway, and loading must not refuse them. Consumers (the converter) decide what to do.
#pragma once

#include <assbin/types.hpp>

#include <string>
#include <vector>

namespace assbin {

enum class Severity { Warning, Error };

struct Problem {
    Severity severity = Severity::Warning;
    std::string path;    // "scene/mesh[2]/faces[17]"
    std::string message; // one sentence
};

// Every problem found, in scene order; empty for a clean scene. Never throws on bad content.
std::vector<Problem> validate(const Scene& scene);

} // namespace assbin
