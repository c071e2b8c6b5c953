//===- ForkStats.h - Which forks change the latency -------------*- C++ -*-===//
//
// Many forks of a kernel's tree cannot change its latency (the model ties
// every `unroll` value, for one), so a search that mutates them spends
// measurements on equivalent terminals. ForkStats learns this from
// measurements alone: decision keys that are options of one node belong to
// one fork (wherever in the tree the same options appear); two measured
// terminals whose paths differ in one option of one fork are a swap of that
// fork, which either tied or changed the latency. A fork is inert once
// kInertTies swaps tied and none changed anything; a terminal's signature
// is its decisions at forks not inert, and equal signatures predict equal
// latencies. Nothing is assumed from the knobs' names.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_TUNER_SEARCH_FORKSTATS_H
#define DEPLODOCK_LIB_TUNER_SEARCH_FORKSTATS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace deplodock::tuner::detail {

class ForkStats {
public:
  /// Swaps that tie, with none that changes the latency, before a fork
  /// counts as inert.
  static constexpr unsigned kInertTies = 2;

  /// Declares `options` (decision keys) the options of one fork.
  void addFork(llvm::ArrayRef<uint64_t> options);
  /// The fork of decision key `key` (a representative key).
  uint64_t forkOf(uint64_t key);
  /// Records a measured terminal: its decision keys, sorted, and its
  /// latency (or reward; only equality matters). Each terminal recorded
  /// before that differs from it in one option of one fork is a swap.
  void addMeasured(llvm::ArrayRef<uint64_t> keys, double latency);
  bool isInert(uint64_t key);
  /// A hash of the keys among `keys` whose fork is not inert.
  uint64_t signature(llvm::ArrayRef<uint64_t> keys);
  /// Changes whenever a fork becomes inert or stops being one.
  unsigned getGeneration() const { return generation; }

private:
  struct Counts {
    unsigned ties = 0, changes = 0;
    bool inert() const { return ties >= kInertTies && changes == 0; }
  };

  void recordSwap(uint64_t a, uint64_t b, bool tie);

  llvm::EquivalenceClasses<uint64_t> forks;
  /// Per hash of a terminal's keys but one: the key left out and the
  /// latency, of every terminal recorded (so that a swap partner is found
  /// without comparing with every terminal).
  llvm::DenseMap<uint64_t, llvm::SmallVector<std::pair<uint64_t, double>, 2>>
      byRest;
  /// Per fork representative.
  llvm::DenseMap<uint64_t, Counts> counts;
  unsigned generation = 0;
};

} // namespace deplodock::tuner::detail

#endif // DEPLODOCK_LIB_TUNER_SEARCH_FORKSTATS_H
