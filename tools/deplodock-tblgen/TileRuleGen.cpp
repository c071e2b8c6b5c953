//===- TileRuleGen.cpp - The Tile rules and their knobs ---------*- C++ -*-===//
//
// Emits, from the TileRule records in TileRulePipeline order (Rules.td):
//  * knob decls (IR): GET_KNOB_ACCESSOR_DECLS, typed getters of KnobsAttr;
//    GET_KNOB_STRUCTS, one struct per rule with its knobs as fields;
//  * knob defs (IR): GET_KNOB_TABLE, GET_KNOB_ACCESSOR_DEFS,
//    GET_KNOB_STRUCT_DEFS;
//  * rule decls (transforms): the create<Rule>Rule() constructors;
//  * rule defs (transforms): GET_RULE_REGISTRY, GET_RULE_PASS_DEFS (the
//    GEN_PASS_DEF macros) and GET_RULE_PASSES (one pass class per rule);
//  * the rule reference in Markdown.
//
//===----------------------------------------------------------------------===//

#include "Generators.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace llvm;

namespace {

/// One knob, as the generators see it.
struct KnobDef {
  const Record *def;
  StringRef name;
  StringRef kind; // Int, Bool, IntList
  StringRef cppType;
  StringRef summary;
  int64_t min, max;
  StringRef cost;
  bool optional;

  /// The C++ identifier of the knob: `BK`, `splitK`.
  std::string field() const {
    SmallVector<StringRef> parts;
    name.split(parts, '_');
    std::string out = parts.front().str();
    for (StringRef part : ArrayRef(parts).drop_front())
      out += (Twine(toUpper(part.front())) + part.drop_front()).str();
    return out;
  }
  /// The accessor of KnobsAttr: `getBK`, `getSplitK`.
  std::string getter() const {
    std::string f = field();
    f[0] = toUpper(f[0]);
    return "get" + f;
  }
  /// The type of the struct field.
  std::string fieldType() const {
    std::string base =
        kind == "IntList" ? "::llvm::SmallVector<int64_t>" : cppType.str();
    return optional ? "std::optional<" + base + ">" : base;
  }
  /// KnobsAttr's string-keyed reader of this kind.
  StringRef reader() const {
    return kind == "Int" ? "getInt" : kind == "Bool" ? "getBool" : "getList";
  }
};

/// One rule.
struct RuleDef {
  const Record *def;
  StringRef name;    // chunk_matmul_k
  std::string cpp;   // ChunkMatmulK
  StringRef passArg; // dtile-chunk-matmul-k
  SmallVector<KnobDef> knobs;

  std::string knobsStruct() const { return cpp + "Knobs"; }
};

/// The rules in pipeline order, checked: every TileRule in the pipeline
/// once, every knob name unique.
std::vector<RuleDef> collectRules(const RecordKeeper &records) {
  const Record *pipeline = records.getDef("TileRulePipeline");
  if (!pipeline)
    PrintFatalError("no TileRulePipeline record");
  std::vector<const Record *> order = pipeline->getValueAsListOfDefs("rules");
  for (const Record *rule : records.getAllDerivedDefinitions("TileRule"))
    if (count(order, rule) != 1)
      PrintFatalError(rule, "every TileRule must appear once in "
                            "TileRulePipeline");
  std::vector<RuleDef> rules;
  StringSet<> knobNames, ruleNames;
  for (const Record *def : order) {
    RuleDef rule{def,
                 def->getValueAsString("ruleName"),
                 "",
                 def->getValueAsString("argument"),
                 {}};
    StringRef cpp = def->getName();
    if (!cpp.consume_front("DTile") || cpp.empty())
      PrintFatalError(def, "a TileRule record is named DTile<Rule>");
    rule.cpp = cpp.str();
    if (!ruleNames.insert(rule.name).second)
      PrintFatalError(def, "a rule of this name already exists");
    for (const Record *knob : def->getValueAsListOfDefs("knobs")) {
      const Record *kind = knob->getValueAsDef("kind");
      KnobDef k{knob,
                knob->getValueAsString("name"),
                kind->getValueAsString("name"),
                kind->getValueAsString("cppType"),
                knob->getValueAsString("summary"),
                knob->getValueAsInt("min"),
                knob->getValueAsInt("max"),
                knob->getValueAsDef("cost")->getValueAsString("name"),
                knob->getValueAsBit("optional")};
      if (!knobNames.insert(k.name).second)
        PrintFatalError(def, "knob '" + k.name + "' is owned by two rules");
      if (k.min > k.max)
        PrintFatalError(def, "knob '" + k.name + "' has an empty range");
      rule.knobs.push_back(k);
    }
    if (rule.knobs.empty())
      PrintFatalError(def, "a rule sets at least one knob");
    rules.push_back(std::move(rule));
  }
  return rules;
}

std::string quote(StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

} // namespace

//===----------------------------------------------------------------------===//
// Knobs
//===----------------------------------------------------------------------===//

bool deplodock::tblgen::emitKnobDecls(const RecordKeeper &records,
                                      raw_ostream &os) {
  emitSourceFileHeader("The knobs of the Tile rules (Rules.td)", os, records);
  std::vector<RuleDef> rules = collectRules(records);

  os << "#ifdef GET_KNOB_ACCESSOR_DECLS\n#undef GET_KNOB_ACCESSOR_DECLS\n";
  for (const RuleDef &rule : rules)
    for (const KnobDef &knob : rule.knobs)
      os << "/// " << knob.name << " (" << rule.name << "): " << knob.summary
         << ".\nstd::optional<" << knob.cppType << "> " << knob.getter()
         << "() const;\n";
  os << "#endif // GET_KNOB_ACCESSOR_DECLS\n\n";

  os << "#ifdef GET_KNOB_STRUCTS\n#undef GET_KNOB_STRUCTS\n";
  for (const RuleDef &rule : rules) {
    std::string name = rule.knobsStruct();
    os << "/// The knobs of " << rule.name << ".\nstruct " << name << " {\n";
    for (const KnobDef &knob : rule.knobs)
      os << "  /// " << knob.summary << ".\n  " << knob.fieldType() << " "
         << knob.field() << "{};\n";
    os << "\n  /// The rule owning these knobs.\n"
       << "  static ::llvm::StringLiteral getRuleName() { return "
       << quote(rule.name) << "; }\n"
       << "  /// These knobs as `#dtile.knobs`.\n"
       << "  KnobsAttr toAttr(::mlir::MLIRContext *context) const;\n"
       << "  /// The knobs of " << rule.name
       << " `knobs` sets, if it sets every required one.\n"
       << "  static std::optional<" << name << "> fromAttr(KnobsAttr knobs);\n"
       << "  bool operator==(const " << name << " &other) const;\n"
       << "  bool operator!=(const " << name
       << " &other) const { return !(*this == other); }\n};\n\n";
  }
  os << "#endif // GET_KNOB_STRUCTS\n";
  return false;
}

bool deplodock::tblgen::emitKnobDefs(const RecordKeeper &records,
                                     raw_ostream &os) {
  emitSourceFileHeader("The knobs of the Tile rules (Rules.td)", os, records);
  std::vector<RuleDef> rules = collectRules(records);

  os << "#ifdef GET_KNOB_TABLE\n#undef GET_KNOB_TABLE\n";
  os << "static const KnobInfo kKnobTable[] = {\n";
  for (const RuleDef &rule : rules)
    for (const KnobDef &knob : rule.knobs)
      os << "    {" << quote(knob.name) << ", KnobKind::" << knob.kind << ", "
         << quote(rule.name) << ", " << quote(knob.summary) << ", " << knob.min
         << ", " << knob.max << ", KnobCost::" << knob.cost << ", "
         << (knob.optional ? "true" : "false") << "},\n";
  os << "};\n#endif // GET_KNOB_TABLE\n\n";

  os << "#ifdef GET_KNOB_ACCESSOR_DEFS\n#undef GET_KNOB_ACCESSOR_DEFS\n";
  for (const RuleDef &rule : rules)
    for (const KnobDef &knob : rule.knobs)
      os << "std::optional<" << knob.cppType << "> KnobsAttr::" << knob.getter()
         << "() const {\n  return " << knob.reader() << "(" << quote(knob.name)
         << ");\n}\n";
  os << "#endif // GET_KNOB_ACCESSOR_DEFS\n\n";

  os << "#ifdef GET_KNOB_STRUCT_DEFS\n#undef GET_KNOB_STRUCT_DEFS\n";
  for (const RuleDef &rule : rules) {
    std::string name = rule.knobsStruct();
    // toAttr
    os << "KnobsAttr " << name
       << "::toAttr(::mlir::MLIRContext *context) const {\n"
       << "  ::mlir::Builder b(context);\n"
       << "  ::llvm::SmallVector<::mlir::NamedAttribute> entries;\n";
    for (const KnobDef &knob : rule.knobs) {
      std::string value = knob.optional ? "*" + knob.field() : knob.field();
      std::string attr =
          knob.kind == "Int"    ? "b.getI64IntegerAttr(" + value + ")"
          : knob.kind == "Bool" ? "b.getBoolAttr(" + value + ")"
                                : "b.getDenseI64ArrayAttr(" + value + ")";
      if (knob.optional)
        os << "  if (" << knob.field() << ")\n  ";
      os << "  entries.push_back(b.getNamedAttr(" << quote(knob.name) << ", "
         << attr << "));\n";
    }
    os << "  return KnobsAttr::get(context, entries);\n}\n\n";
    // fromAttr
    os << "std::optional<" << name << "> " << name
       << "::fromAttr(KnobsAttr knobs) {\n  " << name << " result;\n"
       << "  bool any = false;\n";
    for (const KnobDef &knob : rule.knobs) {
      os << "  if (auto value = knobs." << knob.getter() << "()) {\n"
         << "    result." << knob.field() << " = "
         << (knob.kind == "IntList"
                 ? "::llvm::SmallVector<int64_t>(value->begin(), value->end())"
                 : "*value")
         << ";\n    any = true;\n  }";
      if (!knob.optional)
        os << " else {\n    return std::nullopt;\n  }";
      os << "\n";
    }
    os << "  if (!any)\n    return std::nullopt;\n  return result;\n}\n\n";
    // operator==
    os << "bool " << name << "::operator==(const " << name
       << " &other) const {\n  return true";
    for (const KnobDef &knob : rule.knobs)
      os << " &&\n         " << knob.field() << " == other." << knob.field();
    os << ";\n}\n\n";
  }
  os << "#endif // GET_KNOB_STRUCT_DEFS\n";
  return false;
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

bool deplodock::tblgen::emitRuleDecls(const RecordKeeper &records,
                                      raw_ostream &os) {
  emitSourceFileHeader("The Tile rules (Rules.td)", os, records);
  for (const RuleDef &rule : collectRules(records))
    os << "/// " << rule.name << ", defined in " << rule.cpp << ".cpp.\n"
       << "std::unique_ptr<Rule> create" << rule.cpp << "Rule();\n";
  return false;
}

bool deplodock::tblgen::emitRuleDefs(const RecordKeeper &records,
                                     raw_ostream &os) {
  emitSourceFileHeader("The Tile rules (Rules.td)", os, records);
  std::vector<RuleDef> rules = collectRules(records);

  os << "#ifdef GET_RULE_REGISTRY\n#undef GET_RULE_REGISTRY\n";
  os << "/// Every rule, in pipeline order.\n"
     << "static std::vector<std::unique_ptr<Rule>> createAllRules() {\n"
     << "  std::vector<std::unique_ptr<Rule>> rules;\n";
  for (const RuleDef &rule : rules)
    os << "  rules.push_back(create" << rule.cpp << "Rule());\n";
  os << "  return rules;\n}\n#endif // GET_RULE_REGISTRY\n\n";

  os << "#ifdef GET_RULE_PASS_DEFS\n#undef GET_RULE_PASS_DEFS\n";
  for (const RuleDef &rule : rules)
    os << "#define GEN_PASS_DEF_" << rule.def->getName().upper() << "\n";
  os << "#endif // GET_RULE_PASS_DEFS\n\n";

  os << "#ifdef GET_RULE_PASSES\n#undef GET_RULE_PASSES\n";
  for (const RuleDef &rule : rules) {
    StringRef def = rule.def->getName();
    os << "/// " << rule.name << " alone.\nstruct " << def
       << "Pass final\n    : ::deplodock::dtile::impl::" << def << "Base<"
       << def << "Pass> {\n  using Base::Base;\n"
       << "  void runOnOperation() override {\n"
       << "    if (failed(runRulePass(getOperation(), " << quote(rule.name)
       << ", target, knobs, listForks)))\n"
       << "      signalPassFailure();\n  }\n};\n\n";
  }
  os << "#endif // GET_RULE_PASSES\n";
  return false;
}

bool deplodock::tblgen::emitRuleDoc(const RecordKeeper &records,
                                    raw_ostream &os) {
  std::vector<RuleDef> rules = collectRules(records);
  os << "<!-- Autogenerated by deplodock-tblgen from Rules.td; don't manually "
        "edit -->\n\n";
  os << "# Tile rules\n\n"
     << "The rules `dtile-lower` runs, in this order. Each lists the legal "
        "options for a kernel on the module's target, a heuristic picks the "
        "default among them, and the chosen option's knobs are stamped on "
        "the kernel as `#dtile.knobs`. `list-forks` remarks the options, the "
        "heuristic's pick first and starred. Every rule is also a pass "
        "running it alone (see DTilePasses.md).\n\n";
  os << "| Rule | Pass | Knobs |\n|---|---|---|\n";
  for (const RuleDef &rule : rules) {
    SmallVector<std::string> names;
    for (const KnobDef &knob : rule.knobs)
      names.push_back("`" + knob.name.str() + "`");
    os << "| [" << rule.name << "](#" << rule.name << ") | `-" << rule.passArg
       << "` | " << join(names, ", ") << " |\n";
  }
  for (const RuleDef &rule : rules) {
    os << "\n## " << rule.name << "\n\n_"
       << rule.def->getValueAsString("summary") << "_\n\n";
    StringRef description = rule.def->getValueAsString("description");
    SmallVector<StringRef> lines;
    description.split(lines, '\n');
    // Drop the common indentation of the TableGen code block.
    size_t indent = StringRef::npos;
    for (StringRef line : lines)
      if (!line.trim().empty())
        indent = std::min(indent, line.size() - line.ltrim().size());
    std::string text;
    for (StringRef line : lines)
      text += (line.size() >= indent ? line.drop_front(indent) : line.ltrim())
                  .str() +
              "\n";
    os << StringRef(text).trim() << "\n\n";
    os << "| Knob | Type | Range | Meaning |\n|---|---|---|---|\n";
    for (const KnobDef &knob : rule.knobs) {
      std::string range;
      if (knob.kind == "Bool")
        range = "true, false";
      else if (knob.max == 2147483647)
        range = ">= " + std::to_string(knob.min);
      else
        range = "[" + std::to_string(knob.min) + ", " +
                std::to_string(knob.max) + "]";
      if (knob.kind == "IntList")
        range = "items " + range;
      os << "| `" << knob.name << "`" << (knob.optional ? " (optional)" : "")
         << " | " << knob.kind << " | " << range << " | " << knob.summary
         << " |\n";
    }
    os << "\nA fork, as `list-forks` reports it (after the kernel's name):"
          "\n\n```\n"
       << rule.def->getValueAsString("forks") << "\n```\n";
  }
  return false;
}
