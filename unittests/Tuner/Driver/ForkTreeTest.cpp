//===- ForkTreeTest.cpp - Tests of the fork-tree search space -------------===//
//
// The space must have exactly the terminals ForkCursor counts and
// enumerates, hold no IR per node (only a bounded cache of cursors), give
// the same ids and knobs every time, rebuild any node from its decision
// path, and start at the heuristic default along option 0.
//
//===----------------------------------------------------------------------===//

#include "LoopKernels.h"

#include "../ErrorSupport.h"
#include "Deplodock/Dialect/DTile/Transforms/Passes.h"
#include "Deplodock/Tuner/ForkTree.h"
#include "Deplodock/Tuner/Search.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
using namespace deplodock::tuner::testing;

namespace {

class ForkTreeTest : public LoopKernelsTest {
protected:
  dtile::Target sm90 = dtile::Target::lookup(&context, "sm_90");

  std::unique_ptr<ForkTreeSpace> space(StringRef name, size_t capacity = 8) {
    FailureOr<std::unique_ptr<ForkTreeSpace>> s =
        ForkTreeSpace::create(kernel(name), sm90, capacity);
    EXPECT_TRUE(succeeded(s)) << name.str();
    return succeeded(s) ? std::move(*s) : nullptr;
  }

  /// Runs the exhaustive search, calling `check` at every terminal; returns
  /// the knobs text of every terminal in order.
  std::vector<std::string> walkAll(
      ForkTreeSpace &s, std::function<void(NodeId)> check = [](NodeId) {},
      size_t maxVariants = 0) {
    std::vector<std::string> knobs;
    auto measure = [&](NodeId node) {
      check(node);
      knobs.push_back(dtile::formatKnobsOption("", s.getKnobs(node)));
      return Measurement::latency(1.0 + double(knobs.size()));
    };
    FunctionEvaluator evaluator(measure);
    SearchOptions options;
    options.maxVariants = maxVariants;
    SearchResult result = createExhaustiveSearch()->run(s, evaluator, options);
    EXPECT_EQ(result.stopReason,
              maxVariants ? StopReason::VariantBudget : StopReason::Exhausted);
    EXPECT_EQ(result.numMeasured(), knobs.size());
    return knobs;
  }
};

TEST_F(ForkTreeTest, TerminalsAreWhatTheCursorCountsAndEnumerates) {
  // Not the matmul: its tree has grown past what a test can walk (minutes).
  for (StringRef name : {"rownorm", "scale"}) {
    std::unique_ptr<ForkTreeSpace> s = space(name);
    ASSERT_TRUE(s);
    FailureOr<dtile::ForkCursor> root =
        dtile::ForkCursor::start(kernel(name), sm90);
    ASSERT_TRUE(succeeded(root));
    FailureOr<size_t> count = root->count(1000000);
    ASSERT_TRUE(succeeded(count));
    std::vector<std::string> walked = walkAll(*s);
    EXPECT_EQ(walked.size(), *count) << name.str();
    EXPECT_GT(walked.size(), 1u) << name.str();

    // The same set of knob assignments, each once.
    FailureOr<SmallVector<dtile::KnobsAttr>> every = root->enumerate(*count);
    ASSERT_TRUE(succeeded(every));
    llvm::StringSet<> expected;
    for (dtile::KnobsAttr knobs : *every)
      expected.insert(dtile::formatKnobsOption("", knobs));
    llvm::StringSet<> seen;
    for (const std::string &knobs : walked) {
      EXPECT_TRUE(seen.insert(knobs).second) << "twice: " << knobs;
      EXPECT_TRUE(expected.contains(knobs)) << "unexpected: " << knobs;
    }
  }
}

TEST_F(ForkTreeTest, HoldsNoIrPerNode) {
  // A tiny cache forces rebuilding by replay all the time; the answer must
  // not change and no more than two cursors may ever be held.
  // The first 300 terminals of the matmul, depth-first (all of them take
  // minutes).
  std::unique_ptr<ForkTreeSpace> small = space("matmul", /*capacity=*/2);
  std::unique_ptr<ForkTreeSpace> large = space("matmul", /*capacity=*/64);
  ASSERT_TRUE(small && large);
  size_t most = 0;
  std::vector<std::string> a = walkAll(
      *small,
      [&](NodeId) { most = std::max(most, small->getNumCachedCursors()); },
      300);
  std::vector<std::string> b = walkAll(
      *large, [](NodeId) {}, 300);
  EXPECT_EQ(a, b);
  EXPECT_LE(most, 2u);
  EXPECT_LE(small->getNumCachedCursors(), 2u);
  EXPECT_LE(large->getNumCachedCursors(), 64u);
  // Many nodes, a few dozen bytes each: decisions, not IR.
  EXPECT_GT(small->getNumNodes(), a.size());
  EXPECT_LE(ForkTreeSpace::getBytesPerNode(), 64u);
  // Rebuilding by replay did more rule applications with the small cache.
  EXPECT_GT(small->getNumReplayedChoices(), large->getNumReplayedChoices());
}

TEST_F(ForkTreeTest, IdsAndKnobsAreDeterministic) {
  std::unique_ptr<ForkTreeSpace> first = space("rownorm");
  std::unique_ptr<ForkTreeSpace> second = space("rownorm");
  ASSERT_TRUE(first && second);
  std::vector<NodeId> idsA, idsB;
  std::vector<std::string> a =
      walkAll(*first, [&](NodeId n) { idsA.push_back(n); });
  std::vector<std::string> b =
      walkAll(*second, [&](NodeId n) { idsB.push_back(n); });
  EXPECT_EQ(a, b);
  EXPECT_EQ(idsA, idsB);
  // Walking the same space again finds the same nodes: children are made
  // once and kept.
  size_t nodes = first->getNumNodes();
  std::vector<std::string> again = walkAll(*first);
  EXPECT_EQ(a, again);
  EXPECT_EQ(first->getNumNodes(), nodes);
}

TEST_F(ForkTreeTest, EveryNodeIsRebuiltFromItsPath) {
  std::unique_ptr<ForkTreeSpace> s = space("matmul", /*capacity=*/1);
  ASSERT_TRUE(s);
  // Terminals along a seeded random search; with one cursor cached, nearly
  // every one is rebuilt from the root.
  std::vector<NodeId> terminals;
  auto measure = [&](NodeId node) {
    terminals.push_back(node);
    return Measurement::latency(1.0 + double(node % 7));
  };
  FunctionEvaluator evaluator(measure);
  SearchOptions options;
  options.maxVariants = 40;
  options.seed = 3;
  createRandomSearch()->run(*s, evaluator, options);
  ASSERT_EQ(terminals.size(), 40u);
  for (NodeId node : terminals) {
    SmallVector<unsigned> path = s->getPath(node);
    EXPECT_EQ(path.size() + 1, s->getAncestry(node).size());
    FailureOr<NodeId> again = s->descend(path);
    ASSERT_TRUE(succeeded(again));
    EXPECT_EQ(*again, node);
    const dtile::ForkCursor *cursor = s->getCursor(node);
    ASSERT_TRUE(cursor);
    EXPECT_TRUE(cursor->isDone());
    EXPECT_EQ(cursor->getKnobs(), s->getKnobs(node));
    // The knobs are those of the ancestors plus each hop's delta.
    // A named copy: the loop must not outlive the ancestry it walks.
    SmallVector<NodeId> ancestry = s->getAncestry(node);
    for (NodeId step : ArrayRef<NodeId>(ancestry).drop_front())
      for (NamedAttribute entry : s->getDelta(step).getEntries())
        EXPECT_EQ(s->getKnobs(node).getEntries().get(entry.getName()),
                  entry.getValue());
  }
  // A path out of range goes nowhere.
  EXPECT_TRUE(failed(s->descend({9999})));
}

TEST_F(ForkTreeTest, EveryLevelForks) {
  // Rules with a single option are applied in passing.
  std::unique_ptr<ForkTreeSpace> s = space("rownorm");
  ASSERT_TRUE(s);
  walkAll(*s);
  for (NodeId node = 0; node < s->getNumNodes(); ++node) {
    if (s->isTerminal(node))
      continue;
    SmallVector<NodeId> kids;
    s->children(node, kids);
    EXPECT_GE(kids.size(), 2u) << "node " << node;
    EXPECT_TRUE(s->getRule(node));
  }
  // Ids the space never made have no children and are not terminals.
  SmallVector<NodeId> none;
  s->children(s->getNumNodes() + 5, none);
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(s->isTerminal(s->getNumNodes() + 5));
}

TEST_F(ForkTreeTest, DecisionDistanceCountsDifferingKnobs) {
  std::unique_ptr<ForkTreeSpace> s = space("matmul");
  ASSERT_TRUE(s);
  // Down option 0 to the first fork whose options set two knobs or more.
  NodeId node = s->root();
  SmallVector<NodeId> kids;
  while (!s->isTerminal(node)) {
    kids.clear();
    s->children(node, kids);
    ASSERT_FALSE(kids.empty());
    if (s->getDelta(kids.front()).getEntries().size() >= 2)
      break;
    node = kids.front();
  }
  ASSERT_FALSE(s->isTerminal(node));
  // A metric over the options (which differ): zero only to itself,
  // symmetric, at most the knobs both set, with the triangle inequality.
  bool near = false;
  for (NodeId a : kids)
    for (NodeId b : kids) {
      std::optional<unsigned> d = s->decisionDistance(a, b);
      ASSERT_TRUE(d);
      EXPECT_EQ(*d == 0, a == b);
      EXPECT_EQ(d, s->decisionDistance(b, a));
      EXPECT_LE(*d, s->getDelta(a).getEntries().size() +
                        s->getDelta(b).getEntries().size());
      for (NodeId c : kids)
        EXPECT_LE(*s->decisionDistance(a, c), *d + *s->decisionDistance(b, c));
      near |= *d == 1;
    }
  EXPECT_EQ(s->decisionDistance(kids.front(), kids.front()), 0u);
  // Some options change one knob of another (neighbours for the descent).
  EXPECT_TRUE(near);
  // The root and ids the space never made have no distance.
  EXPECT_FALSE(s->decisionDistance(s->root(), kids.front()));
  EXPECT_FALSE(s->decisionDistance(kids.front(), s->getNumNodes() + 5));
}

TEST_F(ForkTreeTest, DefaultTerminalIsWhatDTileLowerPicks) {
  for (StringRef name : {"matmul", "rownorm", "scale"}) {
    std::unique_ptr<ForkTreeSpace> s = space(name);
    ASSERT_TRUE(s);
    FailureOr<NodeId> fallback = s->defaultTerminal();
    ASSERT_TRUE(succeeded(fallback));
    for (unsigned option : s->getPath(*fallback))
      EXPECT_EQ(option, 0u);

    OwningOpRef<ModuleOp> lowered = module->clone();
    PassManager pm(&context);
    pm.addPass(dtile::createDTileLower());
    ASSERT_TRUE(succeeded(pm.run(*lowered)));
    dtile::KernelOp tiled;
    lowered->walk([&](dtile::KernelOp k) {
      if (k.getSymName() == name)
        tiled = k;
    });
    ASSERT_TRUE(tiled);
    EXPECT_EQ(tiled.getKnobs(), s->getKnobs(*fallback)) << name.str();
  }
}

} // namespace
