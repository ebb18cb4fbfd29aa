// Boost.Test prints an error code by name ("BadLength", not 5) when a check on it fails: operator<<
// for the libraries' ErrorCode enums, in their own namespaces so that lookup finds them. Tests only;
// the libraries keep their error_code_name().
#pragma once

#include <ostream>

// Each for the suites that can see the library (assbin_tests does not link aem).
#if __has_include(<assbin/error.hpp>)
#include <assbin/error.hpp>
namespace assbin {
inline std::ostream& operator<<(std::ostream& out, ErrorCode code) {
    return out << error_code_name(code);
}
} // namespace assbin
#endif

#if __has_include(<aem/io.hpp>)
#include <aem/io.hpp>
namespace aem {
inline std::ostream& operator<<(std::ostream& out, ErrorCode code) {
    return out << error_code_name(code);
}
} // namespace aem
#endif
