//===- LayerManifestTest.cpp - The launch manifest of a layer -------------===//
//
// A manifest survives encode -> text -> decode unchanged, its roles and
// bindings follow its arguments and results, and a malformed or
// inconsistent one fails with a message naming what is wrong.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/LayerManifest.h"

#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

using namespace deplodock::runtime;
using llvm::json::Object;
using llvm::json::Value;

namespace {

BufferSpec buffer(std::string name, DType dtype,
                  llvm::SmallVector<int64_t, 4> shape) {
  BufferSpec spec;
  spec.name = std::move(name);
  spec.dtype = dtype;
  spec.shape = std::move(shape);
  return spec;
}

/// Two arguments; three allocations, the last returned first, the middle
/// one scratch; a split-K launch and a TMA one.
LayerManifest sampleManifest() {
  LayerManifest manifest;
  manifest.function = "layer";
  manifest.indexBitwidth = 64;
  manifest.buffers = {
      buffer("x", DType::F16, {64, 32}), buffer("w", DType::F32, {32}),
      buffer("acc", DType::F32, {4}), buffer("tmp", DType::BF16, {8, 8}),
      buffer("y", DType::I32, {2, 3})};
  manifest.numArguments = 2;
  LaunchSpec first;
  first.kernel = "split_k";
  first.grid = {1, 1, 2};
  first.block = {4, 1, 1};
  first.params = {{0, std::nullopt}, {2, std::nullopt}};
  first.zero = {2};
  first.writes = {2};
  LaunchSpec second;
  second.kernel = "tma";
  second.grid = {4, 2, 1};
  second.block = {128, 1, 1};
  second.smemBytes = 1024;
  second.params = {
      {0, TmaSpec{0, {16, 32}, 64}}, {3, std::nullopt}, {4, std::nullopt}};
  second.writes = {3, 4};
  second.early = true;
  manifest.launches = {first, second};
  manifest.results = {4, 2};
  return manifest;
}

std::string text(const LayerManifest &manifest) {
  return llvm::formatv("{0}", encodeManifest(manifest)).str();
}

/// The manifest's JSON with `edit` applied, as text.
template <typename Fn> std::string edited(Fn edit) {
  Value json = encodeManifest(sampleManifest());
  edit(*json.getAsObject());
  return llvm::formatv("{0}", json).str();
}

/// The message decoding `json` fails with ("" if it succeeds).
std::string decodeError(llvm::StringRef json) {
  llvm::Expected<LayerManifest> manifest = decodeManifest(json);
  if (manifest)
    return "";
  return llvm::toString(manifest.takeError());
}

TEST(LayerManifest, RolesAndBindings) {
  LayerManifest manifest = sampleManifest();
  EXPECT_EQ(manifest.getRole(0), BufferRole::Input);
  EXPECT_EQ(manifest.getRole(1), BufferRole::Input);
  EXPECT_EQ(manifest.getRole(2), BufferRole::Output);
  EXPECT_EQ(manifest.getRole(3), BufferRole::Workspace);
  EXPECT_EQ(manifest.getRole(4), BufferRole::Output);
  // Arguments, then the returned allocations in the order returned.
  EXPECT_EQ(manifest.getBindings(), (std::vector<unsigned>{0, 1, 4, 2}));
  // A result returned twice, or an argument returned, binds nothing new.
  manifest.results = {1, 4, 4};
  EXPECT_EQ(manifest.getBindings(), (std::vector<unsigned>{0, 1, 4}));
  EXPECT_EQ(manifest.getRole(2), BufferRole::Workspace);
}

TEST(LayerManifest, RoundTrip) {
  LayerManifest original = sampleManifest();
  llvm::Expected<LayerManifest> decoded = decodeManifest(text(original));
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(decoded->function, "layer");
  EXPECT_EQ(decoded->indexBitwidth, 64u);
  EXPECT_EQ(decoded->numArguments, 2u);
  EXPECT_EQ(decoded->results, original.results);
  ASSERT_EQ(decoded->buffers.size(), original.buffers.size());
  for (auto [got, want] : llvm::zip(decoded->buffers, original.buffers)) {
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.dtype, want.dtype);
    EXPECT_EQ(got.shape, want.shape);
  }
  ASSERT_EQ(decoded->launches.size(), 2u);
  const LaunchSpec &tma = decoded->launches[1];
  EXPECT_EQ(tma.kernel, "tma");
  EXPECT_EQ(tma.grid, (std::array<uint32_t, 3>{4, 2, 1}));
  EXPECT_EQ(tma.smemBytes, 1024u);
  ASSERT_EQ(tma.params.size(), 3u);
  ASSERT_TRUE(tma.params[0].tma.has_value());
  EXPECT_EQ(tma.params[0].tma->box, (llvm::SmallVector<int64_t, 4>{16, 32}));
  EXPECT_EQ(tma.params[0].tma->swizzle, 64u);
  EXPECT_EQ(tma.params[2].buffer, 4u);
  EXPECT_EQ(decoded->launches[0].zero, (llvm::SmallVector<unsigned, 2>{2}));
  EXPECT_FALSE(decoded->launches[0].early);
  EXPECT_TRUE(tma.early);
  EXPECT_TRUE(decoded->compileOptions.empty());
  EXPECT_EQ(text(original).find("compile_options"), std::string::npos);
  // Encoding is deterministic: the same manifest, the same bytes.
  EXPECT_EQ(text(*decoded), text(original));

  // An arch-specific target's layer names its architecture.
  original.compileOptions = {"--gpu-architecture=sm_90a"};
  decoded = decodeManifest(text(original));
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(decoded->compileOptions, original.compileOptions);
  EXPECT_EQ(text(*decoded), text(original));
}

TEST(LayerManifest, ReadersSeeRolesBindingsAndSizes) {
  Value json = encodeManifest(sampleManifest());
  const llvm::json::Array &buffers = *json.getAsObject()->getArray("buffers");
  EXPECT_EQ(buffers[0].getAsObject()->getString("role"), "input");
  EXPECT_EQ(buffers[0].getAsObject()->getInteger("bytes"), 64 * 32 * 2);
  EXPECT_EQ(buffers[3].getAsObject()->getString("role"), "workspace");
  EXPECT_FALSE(buffers[3].getAsObject()->get("binding"));
  EXPECT_EQ(buffers[4].getAsObject()->getInteger("binding"), 2);
  EXPECT_EQ(buffers[2].getAsObject()->getInteger("binding"), 3);
}

TEST(LayerManifest, NothingToLaunch) {
  LayerManifest manifest;
  manifest.function = "identity";
  manifest.buffers = {buffer("x", DType::F32, {4})};
  manifest.numArguments = 1;
  manifest.results = {0};
  llvm::Expected<LayerManifest> decoded = decodeManifest(text(manifest));
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_TRUE(decoded->launches.empty());
  EXPECT_EQ(decoded->getBindings(), (std::vector<unsigned>{0}));
}

TEST(LayerManifest, Constants) {
  LayerManifest manifest = sampleManifest();
  BufferSpec table = buffer("rope", DType::F32, {2});
  table.init = InitKind::Data;
  table.data = {0, 0, 128, 63, 0, 0, 0, 192}; // 1.0, -2.0
  manifest.buffers.push_back(table);
  EXPECT_EQ(manifest.getRole(5), BufferRole::Constant);
  // Not a binding: the runtime holds it.
  EXPECT_EQ(manifest.getBindings(), (std::vector<unsigned>{0, 1, 4, 2}));
  Value json = encodeManifest(manifest);
  const Object &entry =
      *(*json.getAsObject()->getArray("buffers"))[5].getAsObject();
  EXPECT_EQ(entry.getString("role"), "constant");
  EXPECT_EQ(entry.getString("data"), "AACAPwAAAMA=");
  llvm::Expected<LayerManifest> decoded = decodeManifest(text(manifest));
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(decoded->buffers[5].init, InitKind::Data);
  EXPECT_EQ(decoded->buffers[5].data, table.data);
  EXPECT_EQ(decoded->getRole(5), BufferRole::Constant);

  auto withData = [&](unsigned buffer, llvm::StringRef data) {
    Value edited = encodeManifest(manifest);
    (*(*edited.getAsObject()->getArray("buffers"))[buffer]
          .getAsObject())["data"] = data;
    return llvm::formatv("{0}", edited).str();
  };
  EXPECT_EQ(decodeError(withData(5, "not base64!")),
            "expected the contents in base64 at manifest.buffers[5].data");
  EXPECT_EQ(decodeError(withData(5, "AACAPw==")),
            "invalid manifest: constant #5 has 4 bytes of data for 8 bytes");
  EXPECT_EQ(decodeError(withData(0, "AACAPw==")),
            "invalid manifest: buffer #0 has contents but is an argument or "
            "a result, not a constant");
}

TEST(LayerManifest, MalformedManifestsNameTheField) {
  EXPECT_EQ(
      decodeError("not json"),
      "malformed manifest JSON: [1:2, byte=2]: Invalid JSON value (null?)");
  EXPECT_EQ(decodeError(std::string(100, '[') + std::string(100, ']')),
            "malformed manifest JSON: arrays and objects nested deeper than "
            "64 levels");
  EXPECT_EQ(decodeError("[]"), "malformed manifest: not a JSON object");
  EXPECT_EQ(decodeError(edited([](Object &o) { o["format"] = "other"; })),
            "malformed manifest: \"format\" is not \"deplodock-layer\" (not a "
            "file of deplodock-translate --cuda-manifest)");
  EXPECT_EQ(decodeError(edited([](Object &o) { o["version"] = 2; })),
            "manifest version 2; this runtime reads version 1");
  EXPECT_EQ(decodeError(edited([](Object &o) { o.erase("version"); })),
            "manifest version (none); this runtime reads version 1");
  EXPECT_EQ(decodeError(edited([](Object &o) { o.erase("function"); })),
            "expected a string at manifest.function");
  EXPECT_EQ(decodeError(edited([](Object &o) { o["index_bitwidth"] = 16; })),
            "expected 32 or 64 at manifest.index_bitwidth");
  EXPECT_EQ(decodeError(edited([](Object &o) { o["num_arguments"] = -1; })),
            "expected a count of arguments at manifest.num_arguments");
  EXPECT_EQ(decodeError(edited([](Object &o) { o["results"] = "all"; })),
            "expected an array at manifest.results");
  EXPECT_EQ(decodeError(edited([](Object &o) {
              (*o.getArray("results"))[0] = int64_t(1) << 32;
            })),
            "expected an integer from 0 to 4294967295 at manifest.results[0]");
  EXPECT_EQ(decodeError(edited([](Object &o) {
              o["compile_options"] = llvm::json::Array{"-lineinfo", 3};
            })),
            "expected an array of strings at manifest.compile_options");
  EXPECT_EQ(decodeError(edited([](Object &o) { o.erase("buffers"); })),
            "expected an array at manifest.buffers");
  EXPECT_EQ(decodeError(edited([](Object &o) {
              (*(*o.getArray("buffers"))[1].getAsObject())["dtype"] = "f8";
            })),
            "expected a dtype (f16, bf16, f32, f64, i1, i8, i16, i32, i64, "
            "f8e4m3fn, f8e5m2) "
            "at manifest.buffers[1].dtype");
  EXPECT_EQ(decodeError(edited([](Object &o) {
              (*(*o.getArray("launches"))[1].getAsObject())["grid"] =
                  llvm::json::Array{1, 2};
            })),
            "expected 3 dimensions (x, y, z) at manifest.launches[1].grid");
}

TEST(LayerManifest, InconsistentManifestsAreRefused) {
  auto refused = [](LayerManifest manifest) {
    llvm::Error error = validateManifest(manifest);
    return error ? llvm::toString(std::move(error)) : std::string();
  };
  LayerManifest manifest = sampleManifest();
  EXPECT_EQ(refused(manifest), "");
  manifest.numArguments = 6;
  EXPECT_EQ(refused(manifest), "invalid manifest: 6 arguments, but 5 buffers");
  manifest = sampleManifest();
  manifest.results = {5};
  EXPECT_EQ(refused(manifest),
            "invalid manifest: result #0 is buffer #5, but there are 5");
  manifest = sampleManifest();
  manifest.buffers[1].shape = {0};
  EXPECT_EQ(refused(manifest),
            "invalid manifest: buffer #1 (w) has dimension 0");
  manifest = sampleManifest();
  manifest.launches[0].params[1].buffer = 9;
  EXPECT_EQ(refused(manifest),
            "invalid manifest: the manifest launch #0 (@split_k): parameter "
            "#1 names buffer #9, but there are 5");
  manifest = sampleManifest();
  manifest.launches[1].block = {2048, 1, 1};
  EXPECT_EQ(refused(manifest), "invalid manifest: the manifest launch #1 "
                               "(@tma): 2048 threads per block, more than "
                               "1024");
  // The decoder checks the same, and stated roles against the derived ones.
  EXPECT_EQ(decodeError(edited([](Object &o) {
              (*(*o.getArray("buffers"))[3].getAsObject())["role"] = "output";
            })),
            "invalid manifest: buffer #3 says role 'output', but "
            "num_arguments and results make it 'workspace'");
  EXPECT_EQ(decodeError(edited([](Object &o) { o["num_arguments"] = 7; })),
            "invalid manifest: 7 arguments, but 5 buffers");
}

} // namespace
