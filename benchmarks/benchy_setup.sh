#!/usr/bin/env bash
# llama-benchy in a throwaway venv, set up to run offline against the reference server.
#   bash benchmarks/benchy_setup.sh [DIR]        (default DIR: /tmp/agentbench-benchy)
# Offline needs two things llama-benchy would otherwise download: a tokenizer (we build a local
# tokenizer.json that splits text exactly like the reference server's tokenizer) and its "book"
# (we seed its cache, ~/.cache/llama-benchy/md5(URL).txt under a throwaway HOME, with our corpus).
set -euo pipefail
DIR=${1:-/tmp/agentbench-benchy}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BOOK="http://offline.invalid/agentbench-corpus"
mkdir -p "$DIR"
[ -x "$DIR/venv/bin/llama-benchy" ] || { python3 -m venv "$DIR/venv" && "$DIR/venv/bin/pip" install -q llama-benchy; }
"$DIR/venv/bin/python" - "$ROOT/agentbench/data/bench_corpus.txt" "$DIR/tokenizer.json" <<'PY'
import re, sys
from tokenizers import Regex, Tokenizer, decoders, pre_tokenizers
from tokenizers.models import WordLevel
PATTERN = r"\s*\w+|\s*[^\w\s]|\s+"  # agentbench.refserver.schedule.ref_tokenize
text = open(sys.argv[1], encoding="utf-8").read()
vocab = {"[UNK]": 0}
for piece in re.findall(PATTERN, text):
    vocab.setdefault(piece, len(vocab))
tok = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Split(Regex(PATTERN), behavior="isolated")
tok.decoder = decoders.Fuse()
tok.save(sys.argv[2])
PY
HASH=$(python3 -c "import hashlib,sys; print(hashlib.md5(sys.argv[1].encode()).hexdigest())" "$BOOK")
mkdir -p "$DIR/.cache/llama-benchy"
cp "$ROOT/agentbench/data/bench_corpus.txt" "$DIR/.cache/llama-benchy/$HASH.txt"
echo "llama-benchy ready: python benchmarks/fidelity.py --benchy-home $DIR"
