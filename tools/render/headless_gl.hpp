// An OpenGL 3.3 core context with no window: EGL on Mesa's surfaceless platform (software
// rasteriser llvmpipe when there is no GPU, the GPU's driver when there is one), rendering into
// framebuffer objects only.
#pragma once

#include <optional>
#include <string>

namespace assbin::render {

class HeadlessGl {
  public:
    // A current context on this thread, or nullopt with `*why` saying what is missing and which
    // Debian packages provide it.
    static std::optional<HeadlessGl> create(std::string* why);

    HeadlessGl(HeadlessGl&& other) noexcept;
    HeadlessGl& operator=(HeadlessGl&&) = delete;
    HeadlessGl(const HeadlessGl&) = delete;
    ~HeadlessGl();

    // "OpenGL 4.5 (Core Profile) Mesa 22.3.6, llvmpipe (LLVM 15.0.6, 256 bits)".
    std::string description() const;

  private:
    HeadlessGl(void* display, void* context) : display_(display), context_(context) {}
    void* display_ = nullptr;
    void* context_ = nullptr;
};

} // namespace assbin::render
