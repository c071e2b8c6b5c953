//===- ForkTree.cpp - One kernel's fork tree as a search space ------------===//

#include "Deplodock/Tuner/ForkTree.h"

#include "Deplodock/Tuner/ConcurrentWork.h"

#include "llvm/ADT/ScopeExit.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
using dtile::ForkCursor;

ForkTreeSpace::ForkTreeSpace(ForkCursor root, size_t capacity)
    : rootCursor(std::move(root)), capacity(std::max<size_t>(capacity, 1)) {}

FailureOr<std::unique_ptr<ForkTreeSpace>>
ForkTreeSpace::create(dloop::KernelOp kernel, const dtile::Target &target,
                      size_t cacheCapacity) {
  FailureOr<ForkCursor> start = ForkCursor::start(kernel, target);
  if (failed(start))
    return failure();
  size_t choices = 0;
  FailureOr<ForkCursor> root = skipForced(std::move(*start), choices);
  if (failed(root))
    return failure();
  std::unique_ptr<ForkTreeSpace> space(
      new ForkTreeSpace(std::move(*root), cacheCapacity));
  space->numChoices = choices;
  Node node;
  node.parent = 0;
  node.option = 0;
  node.delta =
      dtile::KnobsAttr::get(kernel.getContext(), ArrayRef<NamedAttribute>());
  space->nodes.push_back(node);
  space->learn(0, space->rootCursor);
  return space;
}

FailureOr<ForkCursor> ForkTreeSpace::skipForced(ForkCursor cursor,
                                                size_t &choices) {
  while (!cursor.isDone() && cursor.getOptions().size() == 1) {
    FailureOr<ForkCursor> next = cursor.choose(cursor.getOptions().front());
    ++choices;
    if (failed(next))
      return failure();
    cursor = std::move(*next);
  }
  return cursor;
}

size_t ForkTreeSpace::getBytesPerNode() { return sizeof(Node); }

void ForkTreeSpace::learn(NodeId id, const ForkCursor &cursor) {
  Node &node = nodes[id];
  if (node.state != State::Unknown)
    return;
  node.knobs = cursor.getKnobs();
  if (cursor.isDone()) {
    node.state = State::Terminal;
  } else {
    node.state = State::Inner;
    auto rules = dtile::getRules();
    for (auto [i, rule] : llvm::enumerate(rules))
      if (rule.get() == &cursor.getRule())
        node.rule = static_cast<uint16_t>(i);
  }
}

const ForkCursor *ForkTreeSpace::lookup(NodeId node) {
  if (node == 0)
    return &rootCursor;
  for (CacheEntry &entry : cache)
    if (entry.node == node) {
      entry.lastUse = ++clock;
      return &entry.cursor;
    }
  return nullptr;
}

const ForkCursor *ForkTreeSpace::getCursor(NodeId node) {
  if (node >= nodes.size() || nodes[node].state == State::DeadEnd)
    return nullptr;
  if (const ForkCursor *hit = lookup(node))
    return hit;
  auto start = std::chrono::steady_clock::now();
  llvm::scope_exit addTime([&] {
    replaySeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  });
  // Climb to the nearest ancestor whose cursor is held, then replay the
  // choices below it.
  SmallVector<NodeId> below{node};
  const ForkCursor *from = nullptr;
  while (!(from = lookup(nodes[below.back()].parent)))
    below.push_back(nodes[below.back()].parent);
  std::optional<ForkCursor> current;
  for (NodeId id : llvm::reverse(below)) {
    const ForkCursor &parent = current ? *current : *from;
    const Node &n = nodes[id];
    FailureOr<ForkCursor> next =
        parent.isDone() || n.option >= parent.getOptions().size()
            ? FailureOr<ForkCursor>(failure())
            : parent.choose(parent.getOptions()[n.option]);
    ++numChoices;
    if (succeeded(next))
      next = skipForced(std::move(*next), numChoices);
    if (failed(next)) {
      // An option that does not apply: this node and all below are dead.
      nodes[id].state = State::DeadEnd;
      if (id != node)
        nodes[node].state = State::DeadEnd;
      return nullptr;
    }
    current = std::move(*next);
    learn(id, *current);
  }
  // Keep the result; evict the least recently used cursor when full.
  if (cache.size() >= capacity) {
    auto oldest = llvm::min_element(cache, [](const auto &a, const auto &b) {
      return a.lastUse < b.lastUse;
    });
    cache.erase(oldest);
  }
  cache.push_back({node, ++clock, std::move(*current)});
  return &cache.back().cursor;
}

bool ForkTreeSpace::isTerminal(NodeId node) {
  if (node >= nodes.size())
    return false;
  if (nodes[node].state == State::Unknown)
    (void)getCursor(node);
  return nodes[node].state == State::Terminal;
}

void ForkTreeSpace::children(NodeId node, SmallVectorImpl<NodeId> &out) {
  if (node >= nodes.size())
    return;
  if (!nodes[node].expanded) {
    const ForkCursor *cursor = getCursor(node);
    if (!cursor || cursor->isDone())
      return;
    // Copy what is needed first: growing `nodes` moves its elements.
    SmallVector<dtile::KnobsAttr> options(cursor->getOptions());
    uint32_t first = nodes.size();
    // Children in search order (the default first, then its neighbours),
    // each naming its option.
    for (unsigned i : cursor->getSearchOrder()) {
      Node child;
      child.parent = static_cast<uint32_t>(node);
      child.option = i;
      child.delta = options[i];
      nodes.push_back(child);
    }
    nodes[node].firstChild = first;
    nodes[node].numChildren = nodes.size() - first;
    nodes[node].expanded = true;
  }
  const Node &n = nodes[node];
  for (uint32_t i = 0; i < n.numChildren; ++i)
    out.push_back(n.firstChild + i);
}

/// The prior of an estimate in µs.
static std::optional<double> priorOf(std::optional<double> us) {
  return us && *us > 0 ? std::optional<double>(1 / *us) : std::nullopt;
}

std::optional<double> ForkTreeSpace::prior(NodeId node) {
  if (!priorEstimator || !isTerminal(node))
    return std::nullopt;
  auto known = priors.find(node);
  if (known != priors.end())
    return known->second;
  std::optional<double> us;
  if (const ForkCursor *cursor = getCursor(node))
    if (PriorTask task = priorEstimator(node, *cursor))
      us = task();
  return priors[node] = priorOf(us);
}

void ForkTreeSpace::queuePrior(NodeId node) {
  if (!priorEstimator || !isTerminal(node) || priors.count(node) ||
      llvm::any_of(queued, [&](const auto &q) { return q.first == node; }))
    return;
  const ForkCursor *cursor = getCursor(node);
  PriorTask task = cursor ? priorEstimator(node, *cursor) : nullptr;
  if (!task) {
    priors[node] = std::nullopt;
    return;
  }
  queued.emplace_back(node, std::move(task));
}

void ForkTreeSpace::computeQueuedPriors() {
  std::vector<std::optional<double>> estimates(queued.size());
  std::vector<std::function<void()>> work;
  for (auto [i, entry] : llvm::enumerate(queued))
    work.push_back(
        [&estimates, &task = entry.second, i = i] { estimates[i] = task(); });
  runConcurrently(pool, work);
  // Stored in queue order, on this thread: nothing depends on which task
  // ended first.
  for (auto [entry, us] : llvm::zip(queued, estimates))
    priors[entry.first] = priorOf(us);
  queued.clear();
}

std::optional<uint64_t> ForkTreeSpace::decisionKey(NodeId node) {
  if (node == 0 || node >= nodes.size())
    return std::nullopt;
  return reinterpret_cast<uintptr_t>(nodes[node].delta.getAsOpaquePointer());
}

std::optional<unsigned> ForkTreeSpace::decisionDistance(NodeId a, NodeId b) {
  if (a == 0 || b == 0 || a >= nodes.size() || b >= nodes.size())
    return std::nullopt;
  DictionaryAttr x = nodes[a].delta.getEntries(),
                 y = nodes[b].delta.getEntries();
  unsigned differ = 0;
  for (NamedAttribute entry : x)
    differ += y.get(entry.getName()) != entry.getValue();
  for (NamedAttribute entry : y)
    differ += !x.get(entry.getName());
  return differ;
}

NodeId ForkTreeSpace::getParent(NodeId node) const {
  return node < nodes.size() ? nodes[node].parent : 0;
}

SmallVector<NodeId> ForkTreeSpace::getAncestry(NodeId node) const {
  SmallVector<NodeId> chain{node};
  while (chain.back() != 0)
    chain.push_back(nodes[chain.back()].parent);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

SmallVector<unsigned> ForkTreeSpace::getPath(NodeId node) const {
  SmallVector<unsigned> path;
  // Positions among the children (descend's and the searches' paths),
  // which differ from the option index where options are left out.
  for (NodeId id : getAncestry(node))
    if (id != 0)
      path.push_back(id - nodes[nodes[id].parent].firstChild);
  return path;
}

FailureOr<NodeId> ForkTreeSpace::descend(ArrayRef<unsigned> path) {
  NodeId node = 0;
  SmallVector<NodeId> kids;
  for (unsigned option : path) {
    kids.clear();
    children(node, kids);
    if (option >= kids.size())
      return failure();
    node = kids[option];
  }
  if (!getCursor(node))
    return failure();
  return node;
}

FailureOr<NodeId> ForkTreeSpace::defaultTerminal() {
  NodeId node = 0;
  SmallVector<NodeId> kids;
  while (!isTerminal(node)) {
    kids.clear();
    children(node, kids);
    if (kids.empty())
      return failure();
    node = kids.front();
  }
  return node;
}

dtile::KnobsAttr ForkTreeSpace::getDelta(NodeId node) const {
  return node < nodes.size() ? nodes[node].delta : dtile::KnobsAttr();
}

dtile::KnobsAttr ForkTreeSpace::getKnobs(NodeId node) {
  if (node >= nodes.size())
    return {};
  if (nodes[node].state == State::Unknown)
    (void)getCursor(node);
  return nodes[node].state == State::DeadEnd ? dtile::KnobsAttr()
                                             : nodes[node].knobs;
}

const dtile::Rule *ForkTreeSpace::getRule(NodeId node) {
  if (node >= nodes.size())
    return nullptr;
  if (nodes[node].state == State::Unknown)
    (void)getCursor(node);
  if (nodes[node].state != State::Inner)
    return nullptr;
  return dtile::getRules()[nodes[node].rule].get();
}
