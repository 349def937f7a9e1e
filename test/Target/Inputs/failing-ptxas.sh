#!/bin/sh
# A ptxas that rejects its input, for croq-to-bundle.mlir.
echo "ptxas fatal   : Unresolved extern function (test)" >&2
exit 3
