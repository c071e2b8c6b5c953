//===- SearchTree.cpp - The tree the tree searches keep -------------------===//

#include "SearchTree.h"

#include <algorithm>

using namespace llvm;
using namespace deplodock::tuner;
using namespace deplodock::tuner::detail;

/// Walks below a decision before its mean estimates the same decision
/// elsewhere (one walk's estimate is noisy).
static constexpr unsigned kWalksPerDecision = 2;

SearchTree::SearchTree(SearchRun &run, uint64_t seed) : run(run), rng(seed) {
  nodes.push_back({run.getSpace().root(), kNoNode});
}

double SearchTree::unit() { return double(rng() >> 11) * 0x1.0p-53; }

bool SearchTree::isTerminal(Index n) {
  if (nodes[n].terminal == 0)
    nodes[n].terminal = run.getSpace().isTerminal(nodes[n].id) ? 2 : 1;
  return nodes[n].terminal == 2;
}

bool SearchTree::expand(Index n) {
  if (nodes[n].expanded || nodes[n].done)
    return true;
  if (run.shouldStop())
    return false;
  scratch.clear();
  run.expand(nodes[n].id, scratch);
  Index first = nodes.size();
  for (NodeId id : scratch)
    nodes.push_back({id, n});
  TreeNode &node = nodes[n];
  node.firstChild = first;
  node.numChildren = scratch.size();
  node.expanded = true;
  // The node leaves the frontier and its children join it; a dead end just
  // leaves it.
  if (scratch.empty())
    node.done = true;
  addLive(n, int64_t(scratch.size()) - 1);
  return true;
}

void SearchTree::addLive(Index n, int64_t delta) {
  for (Index i = n; i != kNoNode; i = nodes[i].parent)
    nodes[i].live = uint64_t(int64_t(nodes[i].live) + delta);
}

void SearchTree::reserve(Index n) {
  if (nodes[n].done)
    return;
  nodes[n].done = true;
  addLive(n, -1);
}

void SearchTree::reward(Index n, double reward) {
  for (Index i = n; i != kNoNode; i = nodes[i].parent) {
    ++nodes[i].visits;
    nodes[i].bestReward = std::max(nodes[i].bestReward, reward);
  }
}

double SearchTree::measure(Index n) {
  reserve(n);
  double r = run.evaluate(nodes[n].id).reward();
  reward(n, r);
  return r;
}

Index SearchTree::follow(ArrayRef<unsigned> path) {
  Index n = 0;
  for (unsigned option : path) {
    if (isTerminal(n) || !expand(n) || option >= nodes[n].numChildren)
      return kNoNode;
    n = nodes[n].firstChild + option;
  }
  return n;
}

SmallVector<Index>
SearchTree::seedLeaves(ArrayRef<std::vector<unsigned>> paths) {
  SmallVector<Index> leaves;
  for (ArrayRef<unsigned> path : paths) {
    if (run.stopped())
      break;
    Index n = follow(path);
    if (n != kNoNode && isTerminal(n) && !nodes[n].done &&
        !llvm::is_contained(leaves, n))
      leaves.push_back(n);
  }
  return leaves;
}

Index SearchTree::defaultLeaf() {
  Index n = 0;
  while (!isTerminal(n)) {
    if (!expand(n) || nodes[n].done)
      return kNoNode;
    n = nodes[n].firstChild;
  }
  return n;
}

std::pair<unsigned, double> SearchTree::pathShape(Index n) {
  unsigned depth = 0;
  double fanOut = 0;
  for (Index i = nodes[n].parent; i != kNoNode; i = nodes[i].parent) {
    ++depth;
    fanOut += nodes[i].numChildren;
  }
  return {depth, depth ? fanOut / depth : 0};
}

double SearchTree::leaves(Index n) {
  if (nodes[n].leaves > 0)
    return nodes[n].leaves;
  // The same decision elsewhere (the same option of the same fork under
  // another prefix) has about as many terminals below: its estimates'
  // mean spares a walk that expands a node per level.
  std::optional<uint64_t> key = run.getSpace().decisionKey(nodes[n].id);
  if (key) {
    auto it = byDecision.find(*key);
    if (it != byDecision.end() && it->second.second >= kWalksPerDecision)
      return nodes[n].leaves = it->second.first / it->second.second;
  }
  // Knuth's estimator: one uniform walk down, the product of the fan-outs.
  double product = 1;
  bool deadEnd = false;
  Index at = n;
  while (!isTerminal(at)) {
    if (!expand(at))
      return 0;
    Index fanOut = nodes[at].numChildren;
    if (fanOut == 0) {
      // The walk met a dead end: the subtree may still hold terminals on
      // other paths, so it keeps a small weight.
      product = 0.5;
      deadEnd = true;
      break;
    }
    product *= fanOut;
    at = nodes[at].firstChild + Index(rng() % fanOut);
  }
  nodes[n].leaves = product;
  // A dead end says nothing of the same decision elsewhere.
  if (key && !deadEnd) {
    auto &[sum, count] = byDecision[*key];
    sum += product;
    ++count;
  }
  return product;
}

Index SearchTree::sampleChild(Index n) {
  const Index first = nodes[n].firstChild, end = first + nodes[n].numChildren;
  double live = 0, all = 0;
  for (Index i = first; i != end; ++i) {
    double w = leaves(i);
    if (run.stopped())
      return kNoNode;
    all += w;
    if (nodes[i].live > 0)
      live += w;
  }
  // The children's estimates are better than the node's own walk.
  if (nodes[n].numChildren > 0)
    nodes[n].leaves = all;
  if (live <= 0)
    return uniformChild(n);
  double pick = unit() * live;
  Index last = kNoNode;
  for (Index i = first; i != end; ++i) {
    if (nodes[i].live == 0)
      continue;
    last = i;
    pick -= nodes[i].leaves;
    if (pick < 0)
      return i;
  }
  return last; // Rounding left a sliver: the last live child.
}

Index SearchTree::uniformChild(Index n) {
  const Index first = nodes[n].firstChild, end = first + nodes[n].numChildren;
  uint64_t numLive = 0;
  for (Index i = first; i != end; ++i)
    numLive += nodes[i].live > 0;
  if (numLive == 0)
    return kNoNode;
  uint64_t pick = rng() % numLive;
  for (Index i = first; i != end; ++i)
    if (nodes[i].live > 0 && pick-- == 0)
      return i;
  return kNoNode;
}
