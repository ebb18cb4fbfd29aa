#include "text.hpp"

#include <atomic>

namespace py = pybind11;

namespace assbin::python {

namespace {

// The length of the valid UTF-8 character at `at` (no overlong forms, no surrogates, at most
// U+10FFFF), or 0.
size_t utf8_length(const std::string& s, size_t at) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char first = byte(at);
    if (first < 0x80) return 1;
    size_t length = 0;
    unsigned low = 0x80, high = 0xBF;
    if (first >= 0xC2 && first <= 0xDF) {
        length = 2;
    } else if (first >= 0xE0 && first <= 0xEF) {
        length = 3;
        if (first == 0xE0) low = 0xA0;
        if (first == 0xED) high = 0x9F;
    } else if (first >= 0xF0 && first <= 0xF4) {
        length = 4;
        if (first == 0xF0) low = 0x90;
        if (first == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    if (at + length > s.size()) return 0;
    if (byte(at + 1) < low || byte(at + 1) > high) return 0;
    for (size_t i = 2; i < length; ++i)
        if ((byte(at + i) & 0xC0) != 0x80) return 0;
    return length;
}

std::atomic<bool> said_not_utf8{false};

} // namespace

std::string utf8_or_latin1(const std::string& bytes) {
    std::string out;
    out.reserve(bytes.size());
    for (size_t at = 0; at < bytes.size();) {
        const size_t length = utf8_length(bytes, at);
        if (length > 0) {
            out.append(bytes, at, length);
            at += length;
            continue;
        }
        const unsigned char latin1 = static_cast<unsigned char>(bytes[at++]);
        out += static_cast<char>(0xC0 | (latin1 >> 6));
        out += static_cast<char>(0x80 | (latin1 & 0x3F));
    }
    return out;
}

py::str text(const std::string& bytes) {
    std::string decoded = utf8_or_latin1(bytes);
    if (decoded.size() != bytes.size() && !said_not_utf8.exchange(true)) {
        const std::string warning = "a name in a dump is not UTF-8 (" + decoded +
                                    "): each byte that is not part of a UTF-8 character is read as "
                                    "Latin-1, as the assbin program reads it (said once)";
        if (PyErr_WarnEx(PyExc_UnicodeWarning, warning.c_str(), 1) != 0) throw py::error_already_set();
    }
    return py::str(decoded);
}

py::list text_list(const std::vector<std::string>& items) {
    py::list out;
    for (const std::string& item : items)
        out.append(text(item));
    return out;
}

py::str path_text(const std::filesystem::path& path) {
    PyObject* decoded = PyUnicode_DecodeFSDefault(path.c_str());
    if (!decoded) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(decoded);
}

} // namespace assbin::python
