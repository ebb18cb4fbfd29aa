// One headless context for the process, made on first use on the calling thread.
#include "support/mesa_bptc.hpp"

#include "headless_gl.hpp"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>

#include <cstring>

namespace assbin_test {

std::optional<std::vector<uint8_t>> decode_bc7_with_mesa(const uint8_t* blocks, uint32_t width,
                                                         uint32_t height, std::string* why) {
    static std::string context_error;
    static std::optional<assbin::render::HeadlessGl> context =
        assbin::render::HeadlessGl::create(&context_error);
    if (!context) {
        if (why) *why = context_error;
        return std::nullopt;
    }
    const char* extensions = nullptr;
    GLint count = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    bool bptc = false;
    for (GLint i = 0; i < count && !bptc; ++i) {
        extensions = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i)));
        bptc = extensions && std::strcmp(extensions, "GL_ARB_texture_compression_bptc") == 0;
    }
    if (!bptc) {
        if (why)
            *why =
                "the OpenGL context (" + context->description() + ") has no GL_ARB_texture_compression_bptc";
        return std::nullopt;
    }
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    const GLsizei bytes = GLsizei(size_t{(width + 3) / 4} * ((height + 3) / 4) * 16);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA_BPTC_UNORM, GLsizei(width), GLsizei(height),
                           0, bytes, blocks);
    std::vector<uint8_t> rgba(size_t{width} * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    const GLenum error = glGetError();
    glDeleteTextures(1, &texture);
    if (error != GL_NO_ERROR) {
        if (why) *why = "OpenGL error " + std::to_string(error) + " decoding BC7";
        return std::nullopt;
    }
    return rgba;
}

} // namespace assbin_test
