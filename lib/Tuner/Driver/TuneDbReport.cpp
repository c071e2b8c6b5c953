//===- TuneDbReport.cpp - Listing, showing and pruning the database -------===//
//
// deplodock-tune --list-db, --show=KERNEL and --prune=CONTEXT: what a tune
// database holds (contexts, row counts, each kernel's best), one kernel's
// measured variants, and deleting a context with its rows. Kernels are
// named by the symbol in their recorded Loop IR, or by a key prefix.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/Replay.h"
#include "TuneDriverSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;
using llvm::StringRef;

/// The symbol of a recorded Loop IR kernel (`dloop.kernel @name ...`), or "".
static StringRef kernelName(StringRef pretty) {
  size_t at = pretty.find('@');
  if (at == StringRef::npos)
    return "";
  StringRef rest = pretty.drop_front(at + 1);
  return rest.take_while(
      [](char c) { return llvm::isAlnum(c) || c == '_' || c == '.'; });
}

/// The kernel names by key.
static llvm::Expected<llvm::StringMap<std::string>> kernelNames(TuneDb &db) {
  llvm::Expected<std::vector<std::pair<std::string, std::string>>> ops =
      db.allOps(OpLevel::Loop);
  if (!ops)
    return ops.takeError();
  llvm::StringMap<std::string> names;
  for (const auto &[key, pretty] : *ops)
    names[key] = kernelName(pretty).str();
  return names;
}

/// The backend a context was recorded for, from its `extra` fields.
static StringRef backendOf(const DeviceContext &context) {
  if (std::optional<StringRef> name = context.extra.getString("backend"))
    return *name;
  return "?";
}

static llvm::Expected<TuneDb> openForReading(const TuneDriverOptions &o,
                                             bool write) {
  TuneDbOptions how;
  how.mustExist = true;
  how.readOnly = !write;
  llvm::Expected<std::optional<TuneDb>> db = openDatabase(o, how);
  if (!db)
    return db.takeError();
  return std::move(**db);
}

llvm::Error deplodock::tuner::detail::listDatabase(const TuneDriverOptions &o,
                                                   llvm::raw_ostream &out) {
  llvm::Expected<TuneDb> db = openForReading(o, /*write=*/false);
  if (!db)
    return db.takeError();
  llvm::Expected<TuneDbCounts> counts = db->counts();
  if (!counts)
    return counts.takeError();
  llvm::Expected<std::vector<DeviceContext>> contexts = db->allContexts();
  if (!contexts)
    return contexts.takeError();
  llvm::Expected<llvm::StringMap<std::string>> names = kernelNames(*db);
  if (!names)
    return names.takeError();
  out << db->getPath() << ": " << counts->contexts << " contexts, "
      << counts->loopOps << " kernels, " << counts->perf << " variants ("
      << counts->perfOk << " ok), " << counts->best << " best\n";
  for (const DeviceContext &context : *contexts) {
    llvm::Expected<std::vector<PerfRow>> perf = db->allPerf(context.key);
    if (!perf)
      return perf.takeError();
    llvm::Expected<std::vector<BestRow>> best = db->allBest(context.key);
    if (!best)
      return best.takeError();
    out << "\ncontext " << context.key << " (" << backendOf(context) << ", "
        << context.gpuName << ", sm_" << context.ccMajor << context.ccMinor
        << (contextAllowsTf32(context) ? ", tf32" : "") << "), " << perf->size()
        << " variants, created " << context.createdAt << "\n";
    if (best->empty())
      continue;
    out << llvm::format("  %-28s %-14s %-8s %12s  %s\n", "kernel", "key",
                        "backend", "best us", "knobs");
    for (const BestRow &row : *best) {
      auto name = names->find(row.kernelKey);
      std::string shown =
          name == names->end() || name->second.empty() ? "?" : name->second;
      out << llvm::format("  %-28s %-14s %-8s %12.3f  %s\n", shown.c_str(),
                          row.kernelKey.substr(0, 12).c_str(),
                          row.backend.c_str(), row.medianUs,
                          formatKnobs(row.knobs).c_str());
    }
  }
  return llvm::Error::success();
}

llvm::Error deplodock::tuner::detail::showKernel(const TuneDriverOptions &o,
                                                 llvm::raw_ostream &out) {
  llvm::Expected<TuneDb> db = openForReading(o, /*write=*/false);
  if (!db)
    return db.takeError();
  llvm::Expected<llvm::StringMap<std::string>> names = kernelNames(*db);
  if (!names)
    return names.takeError();
  // The kernels the subject names: by symbol, else by key prefix.
  llvm::SmallVector<std::string> keys;
  for (const auto &entry : *names)
    if (entry.second == o.subject)
      keys.push_back(entry.first().str());
  if (keys.empty())
    for (const auto &entry : *names)
      if (StringRef(entry.first()).starts_with(o.subject))
        keys.push_back(entry.first().str());
  if (keys.empty())
    return makeError("--show: no kernel named or keyed '" + o.subject +
                     "' in " + db->getPath() + " (see --list-db)");
  llvm::sort(keys);
  llvm::Expected<std::vector<DeviceContext>> contexts = db->allContexts();
  if (!contexts)
    return contexts.takeError();
  for (const std::string &key : keys) {
    out << "kernel " << (*names)[key] << " (key " << key << ")\n";
    for (const DeviceContext &context : *contexts) {
      llvm::Expected<std::vector<PerfRow>> rows =
          db->kernelPerf(context.key, key);
      if (!rows)
        return rows.takeError();
      if (rows->empty())
        continue;
      out << "  context " << context.key << " (" << backendOf(context)
          << "): " << rows->size() << " variants\n";
      out << llvm::format("    %-12s %12s %8s  %s\n", "status", "median us",
                          "samples", "knobs");
      for (const PerfRow &row : *rows) {
        std::optional<double> median;
        if (row.stats)
          median = row.stats->medianUs;
        out << llvm::format(
            "    %-12s %12s %8lld  %s",
            measureStatusName(row.status).str().c_str(),
            formatUs(median).c_str(),
            static_cast<long long>(row.stats ? row.stats->numSamples : 0),
            formatKnobs(row.knobs).c_str());
        if (row.status != MeasureStatus::Ok && !row.detail.empty())
          out << "  (" << StringRef(row.detail).split('\n').first << ")";
        out << "\n";
      }
    }
  }
  return llvm::Error::success();
}

llvm::Error deplodock::tuner::detail::pruneContext(const TuneDriverOptions &o,
                                                   llvm::raw_ostream &out) {
  llvm::Expected<TuneDb> db = openForReading(o, /*write=*/true);
  if (!db)
    return db.takeError();
  llvm::Expected<std::vector<DeviceContext>> contexts = db->allContexts();
  if (!contexts)
    return contexts.takeError();
  llvm::SmallVector<StringRef> matches;
  for (const DeviceContext &context : *contexts)
    if (context.key == o.subject)
      matches.assign({context.key});
  if (matches.empty())
    for (const DeviceContext &context : *contexts)
      if (StringRef(context.key).starts_with(o.subject))
        matches.push_back(context.key);
  if (matches.empty())
    return makeError("--prune: no context '" + o.subject + "' in " +
                     db->getPath() + " (see --list-db)");
  if (matches.size() > 1)
    return makeError("--prune: '" + o.subject + "' names " +
                     llvm::Twine(matches.size()) + " contexts (" +
                     llvm::join(matches, ", ") + "); give more of the key");
  std::string key = matches.front().str();
  llvm::Expected<std::vector<PerfRow>> perf = db->allPerf(key);
  if (!perf)
    return perf.takeError();
  llvm::Expected<bool> erased = db->eraseContext(key);
  if (!erased)
    return erased.takeError();
  out << "deleted context " << key << " and its " << perf->size()
      << " variants from " << db->getPath() << "\n";
  return llvm::Error::success();
}
