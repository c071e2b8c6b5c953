// The references in docs/ are what mlir-tblgen (and deplodock-tblgen, for the
// Tile rules) generate from the .td files; after changing a dialect, pass or
// rule description, run scripts/update-docs.sh.
// RUN: diff -u %deplodock_src_root/docs/Dialects/DTensor.md %deplodock_obj_root/docs/Dialects/DTensor.md
// RUN: diff -u %deplodock_src_root/docs/Dialects/DLoop.md %deplodock_obj_root/docs/Dialects/DLoop.md
// RUN: diff -u %deplodock_src_root/docs/Dialects/DTile.md %deplodock_obj_root/docs/Dialects/DTile.md
// RUN: diff -u %deplodock_src_root/docs/Dialects/DKernel.md %deplodock_obj_root/docs/Dialects/DKernel.md
// RUN: diff -u %deplodock_src_root/docs/Dialects/DTileRules.md %deplodock_obj_root/docs/Dialects/DTileRules.md
// RUN: diff -u %deplodock_src_root/docs/Passes/DeplodockConversionPasses.md %deplodock_obj_root/docs/DeplodockConversionPasses.md
// RUN: diff -u %deplodock_src_root/docs/Passes/DLoopPasses.md %deplodock_obj_root/docs/DLoopPasses.md
// RUN: diff -u %deplodock_src_root/docs/Passes/DTilePasses.md %deplodock_obj_root/docs/DTilePasses.md
