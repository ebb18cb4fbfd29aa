// The page: a summary, then one section per pair. Thumbnails are rendered on one headless context
// (the pairs come one after the other), encoded as PNG and inlined as base64.
#include "html_report.hpp"

#include "atomic_file.hpp"

#include "drawable_model.hpp"
#include "headless_gl.hpp"
#include "model_renderer.hpp"
#include "table.hpp"

#include <aem/validate.hpp>

#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

#include <array>
#include <fstream>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace assbin::render {

namespace {

constexpr uint32_t kWidth = 240, kHeight = 180;

std::string escape_html(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string base64(const std::string& bytes) {
    static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const uint32_t chunk = uint32_t(uint8_t(bytes[i])) << 16 |
                               (i + 1 < bytes.size() ? uint32_t(uint8_t(bytes[i + 1])) << 8 : 0) |
                               (i + 2 < bytes.size() ? uint32_t(uint8_t(bytes[i + 2])) : 0);
        out += kDigits[chunk >> 18 & 63];
        out += kDigits[chunk >> 12 & 63];
        out += i + 1 < bytes.size() ? kDigits[chunk >> 6 & 63] : '=';
        out += i + 2 < bytes.size() ? kDigits[chunk & 63] : '=';
    }
    return out;
}

std::string png_data_uri(const Picture& picture) {
    std::string bytes;
    stbi_write_png_to_func(
        [](void* context, void* data, int size) {
            static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
        },
        &bytes, int(picture.width), int(picture.height), 4, picture.rgba.data(), int(picture.width * 4));
    return "data:image/png;base64," + base64(bytes);
}

struct Thumbnail {
    std::optional<Picture> picture;
    std::string note; // why there is none, or what it shows
};

Thumbnail thumbnail(const std::filesystem::path& file, bool have_gl) {
    if (file.empty()) return {std::nullopt, "missing"};
    std::error_code size_error;
    if (std::filesystem::file_size(file, size_error) == 0 && !size_error)
        return {std::nullopt, "expected-failure marker (empty file)"};
    if (!have_gl) return {std::nullopt, "no OpenGL context"};
    try {
        const DrawableModel drawable = load_drawable(file, ReadOptions{}, {});
        if (!aem::validate(drawable.model).empty()) return {std::nullopt, "nothing to draw"};
        RenderOptions options;
        options.width = kWidth;
        options.height = kHeight;
        options.wireframe = drawable.bounds_only;
        options.texture_files = drawable.texture_files;
        return {render_model(drawable.model, options), drawable.bounds_only ? "shortened: mesh bounds" : ""};
    } catch (const std::exception& error) {
        return {std::nullopt, error.what()};
    }
}

// |expected - actual| per channel, brightened 4x: where two full dumps' pictures differ.
Picture difference(const Picture& a, const Picture& b) {
    Picture out{a.width, a.height, std::vector<uint8_t>(a.rgba.size())};
    for (size_t i = 0; i < a.rgba.size(); ++i)
        out.rgba[i] =
            (i % 4 == 3) ? 255 : uint8_t(std::min(255, 4 * std::abs(int(a.rgba[i]) - int(b.rgba[i]))));
    return out;
}

std::string figure(const std::string& caption, const Thumbnail& t) {
    std::string html = "<figure>";
    html += t.picture ? "<img alt=\"" + escape_html(caption) + "\" src=\"" + png_data_uri(*t.picture) + "\">"
                      : "<div class=\"none\">" + escape_html(t.note) + "</div>";
    return html + "<figcaption>" +
           escape_html(caption + (t.picture && !t.note.empty() ? " (" + t.note + ")" : "")) +
           "</figcaption></figure>";
}

std::string section(const ReportPair& pair, bool have_gl) {
    const Thumbnail expected = thumbnail(pair.expected, have_gl), actual = thumbnail(pair.actual, have_gl);
    std::string html = "<section class=\"" + escape_html(pair.verdict) + "\"><h2>" + escape_html(pair.name) +
                       " <span>" + escape_html(pair.verdict) + "</span></h2><div class=\"row\">";
    html += figure("expected", expected) + figure("actual", actual);
    if (pair.verdict == "different" && expected.picture && actual.picture && expected.note.empty() &&
        actual.note.empty())
        html += figure("difference", {difference(*expected.picture, *actual.picture), ""});
    html += "</div>";
    if (!pair.differences.empty()) {
        html += "<ul>";
        for (const std::string& line : pair.differences)
            html += "<li><code>" + escape_html(line) + "</code></li>";
        html += "</ul>";
    }
    return html + "</section>\n";
}

constexpr const char* kStyle =
    "body{font-family:sans-serif;background:#1e222a;color:#e5e9f0;margin:2em}h1{font-size:1.4em}"
    "section{border-top:1px solid #4c566a;padding:.5em 0}h2{font-size:1em}h2 span{padding:.1em .5em;"
    "border-radius:.3em;background:#4c566a}.same h2 span{background:#4f7a3f}.different h2 "
    "span{background:#a3483f}"
    ".row{display:flex;gap:1em}figure{margin:0}img,.none{width:240px;height:180px;display:block}"
    ".none{background:#2e3440;color:#88909c;font-size:.8em;display:flex;align-items:center;justify-content:"
    "center}"
    "figcaption{font-size:.8em;color:#aab}code{font-size:.85em}";

} // namespace

void write_html_report(const std::filesystem::path& path, const std::string& title,
                       const std::vector<ReportPair>& pairs) {
    std::string why;
    const std::optional<HeadlessGl> gl = HeadlessGl::create(&why);
    size_t same = 0;
    for (const ReportPair& pair : pairs)
        same += pair.verdict == "same" ? 1 : 0;
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
                       escape_html(title) + "</title><style>" + kStyle + "</style></head><body>\n<h1>" +
                       escape_html(title) + "</h1><p>" + cli::counted(pairs.size(), "pair") + ": " +
                       cli::with_thousands(same) + " same, " + cli::with_thousands(pairs.size() - same) +
                       " not" + (gl ? "" : " (no pictures: " + escape_html(why) + ")") + "</p>\n";
    for (const ReportPair& pair : pairs)
        html += section(pair, gl.has_value());
    html += "</body></html>\n";
    // The project's one atomic write (temporary beside it, fsync, rename); WriteFailure names the cause.
    assbin_common::write_file_atomically(path, std::as_bytes(std::span(html.data(), html.size())));
}

} // namespace assbin::render
