//===- LayerManifest.cpp - How to launch a compiled layer -----------------===//

#include "Deplodock/Runtime/LayerManifest.h"
#include "Deplodock/Runtime/Protocol.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/FormatVariadic.h"

using namespace deplodock::runtime;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Path;
using llvm::json::Value;

/// The "format" field: says what the file is to someone who finds it.
static constexpr llvm::StringLiteral kFormat = "deplodock-layer";

llvm::StringRef deplodock::runtime::roleName(BufferRole role) {
  switch (role) {
  case BufferRole::Input:
    return "input";
  case BufferRole::Output:
    return "output";
  case BufferRole::Workspace:
    return "workspace";
  case BufferRole::Constant:
    return "constant";
  }
  return "";
}

BufferRole LayerManifest::getRole(unsigned buffer) const {
  if (buffer < numArguments)
    return BufferRole::Input;
  if (llvm::is_contained(results, buffer))
    return BufferRole::Output;
  return buffers[buffer].init == InitKind::Data ? BufferRole::Constant
                                                : BufferRole::Workspace;
}

std::vector<unsigned> LayerManifest::getBindings() const {
  std::vector<unsigned> bindings;
  for (unsigned i = 0; i < numArguments; ++i)
    bindings.push_back(i);
  for (unsigned result : results)
    if (result >= numArguments && !llvm::is_contained(bindings, result))
      bindings.push_back(result);
  return bindings;
}

Value deplodock::runtime::encodeManifest(const LayerManifest &manifest) {
  std::vector<unsigned> bindings = manifest.getBindings();
  Array buffers;
  for (auto [i, buffer] : llvm::enumerate(manifest.buffers)) {
    Array shape;
    for (int64_t d : buffer.shape)
      shape.push_back(d);
    Object object{{"name", buffer.name},
                  {"dtype", dtypeName(buffer.dtype)},
                  {"shape", std::move(shape)},
                  {"bytes", buffer.numBytes()},
                  {"role", roleName(manifest.getRole(i))}};
    auto binding = llvm::find(bindings, i);
    if (binding != bindings.end())
      object["binding"] = binding - bindings.begin();
    if (manifest.getRole(i) == BufferRole::Constant)
      object["data"] = llvm::encodeBase64(buffer.data);
    buffers.push_back(std::move(object));
  }
  Array launches;
  for (const LaunchSpec &launch : manifest.launches)
    launches.push_back(encodeLaunch(launch));
  Array results;
  for (unsigned result : manifest.results)
    results.push_back(result);
  Object object{{"format", kFormat},
                {"version", kManifestVersion},
                {"function", manifest.function},
                {"index_bitwidth", manifest.indexBitwidth},
                {"num_arguments", manifest.numArguments},
                {"results", std::move(results)},
                {"buffers", std::move(buffers)},
                {"launches", std::move(launches)}};
  // Only an arch-specific target's layer has any.
  if (!manifest.compileOptions.empty())
    object["compile_options"] = Array(manifest.compileOptions);
  return object;
}

llvm::Expected<LayerManifest>
deplodock::runtime::decodeManifest(llvm::StringRef text) {
  llvm::Expected<Value> json = parseBoundedJson(text, "manifest");
  if (!json)
    return json.takeError();
  llvm::json::Path::Root root("manifest");
  Path path(root);
  const Object *object = json->getAsObject();
  if (!object)
    return llvm::createStringError("malformed manifest: not a JSON object");
  if (object->getString("format") != kFormat)
    return llvm::createStringError(
        "malformed manifest: \"format\" is not \"deplodock-layer\" (not a "
        "file of deplodock-translate --cuda-manifest)");
  std::optional<int64_t> version = object->getInteger("version");
  if (version != kManifestVersion)
    return llvm::createStringError(
        llvm::formatv("manifest version {0}; this runtime reads version {1}",
                      version ? std::to_string(*version) : "(none)",
                      kManifestVersion)
            .str());

  auto fail = [&](llvm::StringLiteral field, llvm::StringLiteral message) {
    path.field(field).report(message);
    return root.getError();
  };
  LayerManifest manifest;
  std::optional<llvm::StringRef> function = object->getString("function");
  std::optional<int64_t> indexBitwidth = object->getInteger("index_bitwidth");
  std::optional<int64_t> numArguments = object->getInteger("num_arguments");
  if (!function)
    return fail("function", "expected a string");
  if (indexBitwidth != 32 && indexBitwidth != 64)
    return fail("index_bitwidth", "expected 32 or 64");
  if (!numArguments || *numArguments < 0 || *numArguments > (1 << 30))
    return fail("num_arguments", "expected a count of arguments");
  manifest.function = function->str();
  manifest.indexBitwidth = *indexBitwidth;
  manifest.numArguments = *numArguments;
  if (!decodeIndices(object->get("results"), manifest.results,
                     path.field("results")))
    return root.getError();
  if (const Value *options = object->get("compile_options")) {
    const Array *array = options->getAsArray();
    for (size_t i = 0; array && i < array->size(); ++i)
      if (std::optional<llvm::StringRef> option = (*array)[i].getAsString())
        manifest.compileOptions.push_back(option->str());
      else
        array = nullptr;
    if (!array)
      return fail("compile_options", "expected an array of strings");
  }

  // Roles and bindings are derived; a manifest whose stated ones disagree
  // was edited inconsistently.
  std::vector<std::pair<size_t, std::string>> roles;
  const Array *buffers = object->getArray("buffers");
  if (!buffers)
    return fail("buffers", "expected an array");
  // A Path refers to its parent: keep each one alive while its children are.
  Path buffersPath = path.field("buffers");
  for (auto [i, value] : llvm::enumerate(*buffers)) {
    Path p = buffersPath.index(i);
    const Object *buffer = value.getAsObject();
    if (!buffer) {
      p.report("expected an object");
      return root.getError();
    }
    manifest.buffers.emplace_back();
    BufferSpec &spec = manifest.buffers.back();
    if (!decodeBufferShape(*buffer, spec, p))
      return root.getError();
    if (const llvm::json::Value *data = buffer->get("data")) {
      std::optional<llvm::StringRef> text = data->getAsString();
      std::vector<char> bytes;
      llvm::Error error = text ? llvm::decodeBase64(*text, bytes)
                               : llvm::createStringError("not a string");
      if (error) {
        llvm::consumeError(std::move(error));
        p.field("data").report("expected the contents in base64");
        return root.getError();
      }
      spec.init = InitKind::Data;
      spec.data.assign(bytes.begin(), bytes.end());
    }
    if (std::optional<llvm::StringRef> role = buffer->getString("role"))
      roles.emplace_back(i, role->str());
  }
  const Array *launches = object->getArray("launches");
  if (!launches)
    return fail("launches", "expected an array");
  for (auto [i, value] : llvm::enumerate(*launches)) {
    manifest.launches.emplace_back();
    if (!decodeLaunch(value, manifest.launches.back(),
                      path.field("launches").index(i)))
      return root.getError();
  }
  if (llvm::Error error = validateManifest(manifest))
    return std::move(error);
  for (auto &[i, role] : roles)
    if (role != roleName(manifest.getRole(i)))
      return llvm::createStringError(
          llvm::formatv("invalid manifest: buffer #{0} says role '{1}', but "
                        "num_arguments and results make it '{2}'",
                        i, role, roleName(manifest.getRole(i)))
              .str());
  return manifest;
}

llvm::Error
deplodock::runtime::validateManifest(const LayerManifest &manifest) {
  auto invalid = [](const llvm::Twine &message) {
    return llvm::createStringError("invalid manifest: " + message.str());
  };
  if (manifest.numArguments > manifest.buffers.size())
    return invalid(llvm::formatv("{0} arguments, but {1} buffers",
                                 manifest.numArguments,
                                 manifest.buffers.size()));
  for (auto [i, buffer] : llvm::enumerate(manifest.buffers)) {
    if (llvm::Error error = checkBufferShape(buffer, i))
      return invalid(llvm::toString(std::move(error)));
    if (buffer.init != InitKind::Data)
      continue;
    if (i < manifest.numArguments || llvm::is_contained(manifest.results, i))
      return invalid(llvm::formatv("buffer #{0} has contents but is an "
                                   "argument or a result, not a constant",
                                   i));
    if (buffer.data.size() != buffer.numBytes())
      return invalid(llvm::formatv("constant #{0} has {1} bytes of data for "
                                   "{2} bytes",
                                   i, buffer.data.size(), buffer.numBytes()));
  }
  for (auto [i, result] : llvm::enumerate(manifest.results))
    if (result >= manifest.buffers.size())
      return invalid(llvm::formatv("result #{0} is buffer #{1}, but there are "
                                   "{2}",
                                   i, result, manifest.buffers.size()));
  if (!manifest.launches.empty())
    if (llvm::Error error =
            checkLaunches(manifest.launches, manifest.buffers, "the manifest"))
      return invalid(llvm::toString(std::move(error)));
  return llvm::Error::success();
}
