// render_model: the model posed on the CPU (aem::vertex_matrix per vertex, so both layouts and
// every skinning rule are the library's), uploaded once, drawn mesh by mesh with a flat colour per
// material into a multisampled framebuffer, resolved and read back.
#include "model_renderer.hpp"

#include <aem/format.hpp>
#include <aem/pose.hpp>

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>

#include <Eigen/Geometry>

#define STBI_NO_STDIO
#include <stb/stb_image.h>

#include <fstream>
#include <iterator>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace assbin::render {

namespace {

constexpr const char* kVertexShader = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
uniform mat4 view_projection;
out vec3 world_normal;
out vec2 surface_uv;
void main() {
    world_normal = normal;
    surface_uv = uv;
    gl_Position = view_projection * vec4(position, 1.0);
}
)";

constexpr const char* kFragmentShader = R"(#version 330 core
in vec3 world_normal;
in vec2 surface_uv;
uniform vec3 colour;
uniform int textured;
uniform sampler2D base_colour;
uniform vec3 light;
uniform int shade_normals;
out vec4 fragment;
void main() {
    vec3 n = normalize(world_normal);
    if (shade_normals == 1) { fragment = vec4(n * 0.5 + 0.5, 1.0); return; }
    float lit = 0.25 + 0.75 * abs(dot(n, light)); // two-sided: imported winding is not always right
    vec3 albedo = textured == 1 ? texture(base_colour, surface_uv).rgb : colour;
    fragment = vec4(albedo * lit, 1.0);
}
)";

GLuint compile(GLenum type, const char* source) {
    const GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = {};
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("shader compilation failed: ") + log);
    }
    return shader;
}

GLuint program() {
    const GLuint id = glCreateProgram();
    glAttachShader(id, compile(GL_VERTEX_SHADER, kVertexShader));
    glAttachShader(id, compile(GL_FRAGMENT_SHADER, kFragmentShader));
    glLinkProgram(id);
    GLint ok = 0;
    glGetProgramiv(id, GL_LINK_STATUS, &ok);
    if (!ok) throw std::runtime_error("shader linking failed");
    return id;
}

// Positions, normals (in the requested pose) and UVs, interleaved (8 floats per vertex).
std::vector<float> posed_vertices(const aem::Model& model, const RenderOptions& options,
                                  Eigen::AlignedBox3f& bounds) {
    const aem::Pose pose = aem::evaluate_pose(model, options.animation, options.time);
    std::vector<float> out(model.vertices.size() * 8);
    for (uint32_t v = 0; v < model.vertices.size(); ++v) {
        const Eigen::Matrix4f m = aem::vertex_matrix(model, pose, v);
        const aem::Vertex& vertex = model.vertices[v];
        const Eigen::Vector3f p = (m * vertex.position.homogeneous()).head<3>();
        const Eigen::Vector3f n = (m.topLeftCorner<3, 3>() * vertex.normal).normalized();
        if (p.allFinite()) bounds.extend(p);
        for (int k = 0; k < 3; ++k) {
            out[8 * v + k] = p[k];
            out[8 * v + 3 + k] = n.allFinite() ? n[k] : 0.0f;
        }
        out[8 * v + 6] = vertex.uv.x();
        out[8 * v + 7] = vertex.uv.y();
    }
    return out;
}

Eigen::Matrix4f look_at(const Eigen::Vector3f& eye, const Eigen::Vector3f& target,
                        const Eigen::Vector3f& up) {
    const Eigen::Vector3f f = (target - eye).normalized();
    const Eigen::Vector3f s = f.cross(up).normalized();
    const Eigen::Vector3f u = s.cross(f);
    Eigen::Matrix4f m = Eigen::Matrix4f::Identity();
    m.block<1, 3>(0, 0) = s.transpose();
    m.block<1, 3>(1, 0) = u.transpose();
    m.block<1, 3>(2, 0) = -f.transpose();
    m(0, 3) = -s.dot(eye);
    m(1, 3) = -u.dot(eye);
    m(2, 3) = f.dot(eye);
    return m;
}

Eigen::Matrix4f perspective(float fov_y, float aspect, float near, float far) {
    const float f = 1.0f / std::tan(fov_y / 2);
    Eigen::Matrix4f m = Eigen::Matrix4f::Zero();
    m(0, 0) = f / aspect;
    m(1, 1) = f;
    m(2, 2) = (far + near) / (near - far);
    m(2, 3) = 2 * far * near / (near - far);
    m(3, 2) = -1;
    return m;
}

// The camera that frames the bounds' sphere from the requested direction; also the view direction.
Eigen::Matrix4f camera(const Eigen::AlignedBox3f& bounds, const RenderOptions& options,
                       Eigen::Vector3f& toward) {
    const Eigen::Vector3f centre =
        bounds.isEmpty() ? Eigen::Vector3f(Eigen::Vector3f::Zero()) : Eigen::Vector3f(bounds.center());
    const float radius = bounds.isEmpty() ? 1.0f : std::max(1e-6f, bounds.diagonal().norm() / 2);
    const float yaw = options.yaw_degrees * std::numbers::pi_v<float> / 180;
    const float pitch = options.pitch_degrees * std::numbers::pi_v<float> / 180;
    toward =
        Eigen::Vector3f(std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch));
    const float fov = 40.0f * std::numbers::pi_v<float> / 180;
    const float aspect = float(options.width) / float(options.height);
    const float distance = radius / std::sin(std::min(fov, fov * aspect) / 2) * 1.05f;
    const Eigen::Vector3f up =
        std::abs(toward.y()) > 0.99f ? Eigen::Vector3f::UnitZ() : Eigen::Vector3f::UnitY();
    return perspective(fov, aspect, distance * 0.01f, distance + radius * 2) *
           look_at(centre + toward * distance, centre, up);
}

// A stable, distinct colour per material (golden-angle hues).
Eigen::Vector3f material_colour(uint32_t material) {
    const float hue = std::fmod(0.08f + 0.618034f * float(material), 1.0f) * 6.0f;
    const float x = 1.0f - std::abs(std::fmod(hue, 2.0f) - 1.0f);
    const Eigen::Vector3f rgb = hue < 1   ? Eigen::Vector3f(1, x, 0)
                                : hue < 2 ? Eigen::Vector3f(x, 1, 0)
                                : hue < 3 ? Eigen::Vector3f(0, 1, x)
                                : hue < 4 ? Eigen::Vector3f(0, x, 1)
                                : hue < 5 ? Eigen::Vector3f(x, 0, 1)
                                          : Eigen::Vector3f(1, 0, x);
    return Eigen::Vector3f::Constant(0.45f) + 0.45f * rgb;
}

// Framebuffers: multisampled colour + depth to draw in, a plain one to resolve into and read.
struct Targets {
    GLuint draw_fbo = 0, resolve_fbo = 0, colour = 0, depth = 0, resolved = 0;

    Targets(uint32_t width, uint32_t height) {
        const GLsizei w = GLsizei(width), h = GLsizei(height);
        glGenRenderbuffers(1, &colour);
        glBindRenderbuffer(GL_RENDERBUFFER, colour);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, w, h);
        glGenRenderbuffers(1, &depth);
        glBindRenderbuffer(GL_RENDERBUFFER, depth);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_DEPTH_COMPONENT24, w, h);
        glGenFramebuffers(1, &draw_fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, draw_fbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            throw std::runtime_error("the multisampled framebuffer is incomplete");
        glGenRenderbuffers(1, &resolved);
        glBindRenderbuffer(GL_RENDERBUFFER, resolved);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
        glGenFramebuffers(1, &resolve_fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, resolve_fbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolved);
        glBindFramebuffer(GL_FRAMEBUFFER, draw_fbo);
    }
    ~Targets() {
        glDeleteFramebuffers(1, &draw_fbo);
        glDeleteFramebuffers(1, &resolve_fbo);
        const GLuint buffers[3] = {colour, depth, resolved};
        glDeleteRenderbuffers(3, buffers);
    }
    Targets(const Targets&) = delete;
    Targets& operator=(const Targets&) = delete;
};

Picture read_back(const Targets& targets, uint32_t width, uint32_t height) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, targets.draw_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, targets.resolve_fbo);
    glBlitFramebuffer(0, 0, GLint(width), GLint(height), 0, 0, GLint(width), GLint(height),
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, targets.resolve_fbo);
    Picture picture{width, height, std::vector<uint8_t>(size_t{width} * height * 4)};
    std::vector<uint8_t> bottom_up(picture.rgba.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, GLsizei(width), GLsizei(height), GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
    const size_t row = size_t{width} * 4;
    for (uint32_t y = 0; y < height; ++y)
        std::copy_n(bottom_up.begin() + std::ptrdiff_t((height - 1 - y) * row), row,
                    picture.rgba.begin() + std::ptrdiff_t(y * row));
    if (glGetError() != GL_NO_ERROR) throw std::runtime_error("reading the picture back failed");
    return picture;
}

// A GL texture from RGBA8 rows as stored (the AEM runtimes upload them unflipped too), mipmapped.
GLuint upload(uint32_t width, uint32_t height, const uint8_t* rgba) {
    GLuint id = 0;
    glGenTextures(1, &id);
    glBindTexture(GL_TEXTURE_2D, id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 rgba);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    return id;
}

// A BC7 chain as stored (every level, blocks row by row), decoded by the driver (BPTC: OpenGL 4.2,
// or GL_ARB_texture_compression_bptc, which Mesa's llvmpipe has).
GLuint upload_bc7(uint32_t width, uint32_t height, const uint8_t* chain) {
    constexpr GLenum kCompressedRgbaBptcUnorm = 0x8E8C;
    GLuint id = 0;
    glGenTextures(1, &id);
    glBindTexture(GL_TEXTURE_2D, id);
    const uint32_t levels = aem::mip_level_count(width, height);
    for (uint32_t level = 0; level < levels; ++level) {
        const uint32_t w = std::max(1u, width >> level), h = std::max(1u, height >> level);
        const GLsizei bytes = GLsizei(size_t{(w + 3) / 4} * ((h + 3) / 4) * 16);
        glCompressedTexImage2D(GL_TEXTURE_2D, GLint(level), kCompressedRgbaBptcUnorm, GLsizei(w), GLsizei(h),
                               0, bytes, chain);
        chain += bytes;
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, GLint(levels - 1));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    return id;
}

// Per material, its base-colour texture (0 for none): the 2025 layout's chain when RGBA (as stored,
// or BC7) and an image (a 1 x 1 texture is a material factor: the material's flat colour is drawn,
// as for a 2024 model without a texture, so both layouts of one model look alike); the 2024 layout's file,
// as found beforehand (a missing one leaves the flat colour).
std::vector<GLuint> upload_base_colours(const aem::Model& model,
                                        const std::vector<std::filesystem::path>& files) {
    std::vector<GLuint> out(model.materials.size(), 0);
    for (size_t m = 0; m < model.materials.size(); ++m) {
        const int32_t slot = model.materials[m].base_color_texture;
        if (slot < 0 || size_t(slot) >= model.textures.size()) continue;
        const aem::Texture& t = model.textures[size_t(slot)];
        if (model.layout == aem::Layout::Edition2025) {
            if (t.width * uint64_t{t.height} <= 1) continue; // a factor colour, not an image: drawn flat
            const uint64_t bytes = uint64_t{t.width} * t.height * 4;
            if (t.channels == 4 && t.compression == aem::kCompressionNone &&
                t.image_offset + bytes <= model.image_buffer.size())
                out[m] = upload(t.width, t.height, model.image_buffer.data() + t.image_offset);
            if (t.channels == 4 && t.compression == aem::kCompressionBc7 &&
                t.image_offset + aem::mip_chain_bytes(t.width, t.height, 4, aem::kCompressionBc7) <=
                    model.image_buffer.size())
                out[m] = upload_bc7(t.width, t.height, model.image_buffer.data() + t.image_offset);
            continue;
        }
        if (size_t(slot) >= files.size() || files[size_t(slot)].empty()) continue;
        std::ifstream in(files[size_t(slot)], std::ios::binary);
        const std::vector<char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        int width = 0, height = 0, channels = 0;
        if (stbi_uc* pixels = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(file.data()),
                                                    int(file.size()), &width, &height, &channels, 4)) {
            out[m] = upload(uint32_t(width), uint32_t(height), pixels);
            stbi_image_free(pixels);
        }
    }
    return out;
}

// The skeleton over the model: a line from each joint to its parent, a dot per joint, in the pose
// drawn, through the model's shader with lighting off (normals mode on a constant normal).
void draw_bones(const aem::Model& model, const RenderOptions& options, GLuint shader) {
    const aem::Pose pose = aem::evaluate_pose(model, options.animation, options.time);
    std::vector<float> lines, points;
    const auto push = [](std::vector<float>& out, const Eigen::Vector3f& p) {
        out.insert(out.end(), {p.x(), p.y(), p.z(), 0.0f, 1.0f, 0.0f, 0.0f, 0.0f});
    };
    for (size_t b = 0; b < model.bones.size(); ++b) {
        const Eigen::Vector3f at = pose.global[b].topRightCorner<3, 1>();
        push(points, at);
        const int32_t parent = model.bones[b].parent;
        if (parent >= 0 && size_t(parent) < b) {
            push(lines, pose.global[size_t(parent)].topRightCorner<3, 1>());
            push(lines, at);
        }
    }
    glDisable(GL_DEPTH_TEST);
    glUniform1i(glGetUniformLocation(shader, "shade_normals"), 1); // (0, 1, 0) shades light green
    glUniform1i(glGetUniformLocation(shader, "textured"), 0);
    for (auto* data : {&lines, &points}) {
        if (data->empty()) continue;
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(data->size() * sizeof(float)), data->data(), GL_STREAM_DRAW);
        glPointSize(5.0f);
        glLineWidth(2.0f);
        glDrawArrays(data == &lines ? GL_LINES : GL_POINTS, 0, GLsizei(data->size() / 8));
    }
    glEnable(GL_DEPTH_TEST);
}

} // namespace

Picture render_model(const aem::Model& model, const RenderOptions& options) {
    Eigen::AlignedBox3f bounds;
    const std::vector<float> vertices = posed_vertices(model, options, bounds);
    Eigen::Vector3f toward;
    const Eigen::Matrix4f view_projection = camera(bounds, options, toward);
    const Targets targets(options.width, options.height);
    glViewport(0, 0, GLsizei(options.width), GLsizei(options.height));
    glClearColor(options.background[0] / 255.0f, options.background[1] / 255.0f,
                 options.background[2] / 255.0f, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    GLuint array = 0, buffers[2] = {};
    glGenVertexArrays(1, &array);
    glBindVertexArray(array);
    glGenBuffers(2, buffers);
    glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(float)), vertices.data(),
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(model.indices.size() * 4), model.indices.data(),
                 GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 32, nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 32, reinterpret_cast<const void*>(12));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 32, reinterpret_cast<const void*>(24));
    const std::vector<GLuint> textures = upload_base_colours(model, options.texture_files);
    const GLuint shader = program();
    glUseProgram(shader);
    glUniformMatrix4fv(glGetUniformLocation(shader, "view_projection"), 1, GL_FALSE, view_projection.data());
    glUniform3fv(glGetUniformLocation(shader, "light"), 1, toward.normalized().data());
    glUniform1i(glGetUniformLocation(shader, "shade_normals"), options.shade_normals ? 1 : 0);
    glPolygonMode(GL_FRONT_AND_BACK, options.wireframe ? GL_LINE : GL_FILL);
    for (const aem::Mesh& mesh : model.meshes) {
        if (uint64_t{mesh.first_index} + mesh.index_count > model.indices.size()) continue; // broken range
        glUniform3fv(glGetUniformLocation(shader, "colour"), 1, material_colour(mesh.material).data());
        const GLuint texture = mesh.material < textures.size() ? textures[mesh.material] : 0;
        glUniform1i(glGetUniformLocation(shader, "textured"), texture != 0 && !options.shade_normals ? 1 : 0);
        glBindTexture(GL_TEXTURE_2D, texture);
        glDrawElements(GL_TRIANGLES, GLsizei(mesh.index_count - mesh.index_count % 3), GL_UNSIGNED_INT,
                       reinterpret_cast<const void*>(uintptr_t{mesh.first_index} * 4));
    }
    if (glGetError() != GL_NO_ERROR) throw std::runtime_error("drawing the model failed");
    if (options.bones) draw_bones(model, options, shader);
    Picture picture = read_back(targets, options.width, options.height);
    glDeleteProgram(shader);
    glDeleteTextures(GLsizei(textures.size()), textures.data());
    glDeleteBuffers(2, buffers);
    glDeleteVertexArrays(1, &array);
    return picture;
}

} // namespace assbin::render
