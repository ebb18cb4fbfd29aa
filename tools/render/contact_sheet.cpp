// render_sheet: workers each make their own EGL context and take entries in turn; the calling
// thread pastes finished thumbnails in and reports progress. Labels are drawn with stb_easy_font's
// quads, filled on the CPU.
#include "contact_sheet.hpp"

#include "headless_gl.hpp"

#include <stb/stb_easy_font.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

namespace assbin::render {

namespace {

constexpr uint32_t kLabelHeight = 16;

// Text in the picture at (x, y), white, 1 pixel per font unit. Too long, it keeps its end (a path's
// file name), or with `keep_start` its start (a reason).
void draw_label(Picture& picture, uint32_t x, uint32_t y, uint32_t width, std::string text,
                bool keep_start = false) {
    while (!text.empty() && uint32_t(stb_easy_font_width(text.data())) > width) {
        if (keep_start)
            text.pop_back();
        else
            text.erase(0, 1);
    }
    static thread_local char quads[64000];
    const int count = stb_easy_font_print(float(x), float(y), text.data(), nullptr, quads, sizeof quads);
    for (int q = 0; q < count; ++q) {
        const float* v = reinterpret_cast<const float*>(quads + q * 4 * 16); // x, y, z, colour per vertex
        const int x0 = int(v[0]), y0 = int(v[1]), x1 = int(v[8]), y1 = int(v[9]);
        for (int py = std::max(0, y0); py < std::min(int(picture.height), y1); ++py) {
            for (int px = std::max(0, x0); px < std::min(int(picture.width), x1); ++px) {
                uint8_t* p = &picture.rgba[(size_t(py) * picture.width + size_t(px)) * 4];
                p[0] = p[1] = p[2] = 235;
            }
        }
    }
}

// A failed entry's cell: dark red, "FAILED" and as much of the reason as fits.
void mark_failed(Picture& sheet, uint32_t x, uint32_t y, uint32_t width, uint32_t height,
                 const std::string& reason) {
    for (uint32_t row = y; row < y + height; ++row) {
        for (uint32_t column = x; column < x + width; ++column) {
            uint8_t* p = &sheet.rgba[(size_t{row} * sheet.width + column) * 4];
            p[0] = 110;
            p[1] = 24;
            p[2] = 28;
        }
    }
    draw_label(sheet, x + 6, y + 6, width - 12, "FAILED", true);
    // The reason, word-wrapped to the cell, as many lines as fit.
    std::string line, text = reason + " ";
    uint32_t line_y = y + 22;
    for (size_t start = 0, space; (space = text.find(' ', start)) != std::string::npos; start = space + 1) {
        const std::string word = text.substr(start, space - start);
        std::string longer = line.empty() ? word : line + " " + word;
        if (!line.empty() && uint32_t(stb_easy_font_width(longer.data())) > width - 12) {
            if (line_y + 12 > y + height) return;
            draw_label(sheet, x + 6, line_y, width - 12, line, true);
            line_y += 12;
            longer = word;
        }
        line = longer;
    }
    if (!line.empty() && line_y + 12 <= y + height) draw_label(sheet, x + 6, line_y, width - 12, line, true);
}

void paste(Picture& sheet, const Picture& thumbnail, uint32_t x, uint32_t y) {
    for (uint32_t row = 0; row < thumbnail.height; ++row) {
        std::copy_n(thumbnail.rgba.begin() + std::ptrdiff_t(size_t{row} * thumbnail.width * 4),
                    thumbnail.width * 4,
                    sheet.rgba.begin() + std::ptrdiff_t(((size_t{y} + row) * sheet.width + x) * 4));
    }
}

} // namespace

SheetResult render_sheet(const std::vector<SheetEntry>& entries, uint32_t thumbnail_width,
                         uint32_t thumbnail_height, unsigned threads,
                         const std::function<void(size_t, size_t)>& progress) {
    const uint32_t columns = std::max(1u, uint32_t(std::ceil(std::sqrt(double(entries.size())))));
    const uint32_t rows = std::max(1u, uint32_t((entries.size() + columns - 1) / columns));
    const uint32_t cell_height = thumbnail_height + kLabelHeight;
    SheetResult result;
    result.sheet = Picture{columns * thumbnail_width, rows * cell_height, {}};
    result.sheet.rgba.assign(size_t{result.sheet.width} * result.sheet.height * 4, 24);
    for (size_t i = 3; i < result.sheet.rgba.size(); i += 4)
        result.sheet.rgba[i] = 255;

    std::vector<std::optional<Picture>> done(entries.size());
    std::vector<std::string> errors(entries.size());
    std::atomic<size_t> next{0}, contexts{0};
    std::mutex mutex;
    std::condition_variable finished;
    std::string why;
    const auto work = [&] {
        std::string reason;
        std::optional<HeadlessGl> gl = HeadlessGl::create(&reason);
        if (gl) ++contexts;
        for (size_t i = next++; i < entries.size(); i = next++) {
            std::optional<Picture> picture;
            std::string error = gl ? "" : reason;
            if (gl) {
                try {
                    picture = entries[i].render();
                } catch (const std::exception& e) {
                    error = e.what();
                }
            }
            const std::lock_guard lock(mutex);
            done[i] = picture ? std::move(picture) : Picture{};
            errors[i] = error;
            if (!gl) why = reason;
            finished.notify_one();
        }
    };
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < std::max(1u, std::min<unsigned>(threads, unsigned(entries.size()))); ++t)
        workers.emplace_back(work);
    for (size_t i = 0; i < entries.size(); ++i) {
        std::unique_lock lock(mutex);
        finished.wait(lock, [&] { return done[i].has_value(); });
        const uint32_t x = uint32_t(i % columns) * thumbnail_width, y = uint32_t(i / columns) * cell_height;
        if (errors[i].empty()) {
            paste(result.sheet, *done[i], x, y);
        } else {
            mark_failed(result.sheet, x, y, thumbnail_width, thumbnail_height, errors[i]);
            result.failures.push_back(entries[i].path + ": " + errors[i]);
        }
        done[i] = Picture{}; // free the thumbnail
        lock.unlock();
        draw_label(result.sheet, x + 3, y + thumbnail_height + 4, thumbnail_width - 6, entries[i].label);
        progress(i + 1, entries.size());
    }
    for (std::thread& worker : workers)
        worker.join();
    if (contexts == 0 && !entries.empty()) throw std::runtime_error(why);
    return result;
}

} // namespace assbin::render
