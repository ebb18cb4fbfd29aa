// EGL without a window system: the surfaceless Mesa platform when the loader offers it, else the
// default display with a pbuffer-capable config; the context renders into FBOs only.
#include "headless_gl.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>

namespace assbin::render {

namespace {

constexpr const char* kPackages =
    " (on Debian: apt-get install libegl-mesa0 libgl1-mesa-dri, which give Mesa's EGL driver and its "
    "software rasteriser)";

EGLDisplay headless_display() {
    const auto get_platform_display =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (get_platform_display) {
        EGLDisplay display =
            get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (display != EGL_NO_DISPLAY) return display;
    }
    return eglGetDisplay(EGL_DEFAULT_DISPLAY);
}

} // namespace

std::optional<HeadlessGl> HeadlessGl::create(std::string* why) {
    EGLDisplay display = headless_display();
    EGLint major = 0, minor = 0;
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
        if (why) *why = std::string("no EGL display could be opened") + kPackages;
        return std::nullopt;
    }
    const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    eglChooseConfig(display, config_attributes, &config, 1, &configs);
    const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                         3,
                                         EGL_CONTEXT_MINOR_VERSION,
                                         3,
                                         EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                         EGL_NONE};
    EGLContext context = EGL_NO_CONTEXT;
    if (eglBindAPI(EGL_OPENGL_API))
        context = eglCreateContext(display, configs > 0 ? config : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
                                   context_attributes);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
        eglTerminate(display);
        if (why)
            *why = std::string("EGL ") + std::to_string(major) + "." + std::to_string(minor) +
                   " offers no OpenGL 3.3 core context without a window" + kPackages;
        return std::nullopt;
    }
    return HeadlessGl(display, context);
}

HeadlessGl::HeadlessGl(HeadlessGl&& other) noexcept : display_(other.display_), context_(other.context_) {
    other.display_ = other.context_ = nullptr;
}

HeadlessGl::~HeadlessGl() {
    if (!display_) return;
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    // The display stays initialised: EGL does not count initialisations, and other threads may
    // still draw on it (contact sheets render on several); the process's exit releases it.
}

std::string HeadlessGl::description() const {
    const auto text = [](GLenum name) {
        const auto* value = reinterpret_cast<const char*>(glGetString(name));
        return std::string(value ? value : "?");
    };
    return "OpenGL " + text(GL_VERSION) + ", " + text(GL_RENDERER);
}

} // namespace assbin::render
