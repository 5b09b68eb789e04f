#!/usr/bin/env bash
# Copied unchanged from the team's shared tools (../shared/tools/make-salmon-rad.sh); used by `npm run bench`.
# make-salmon-rad.sh -- build a synthetic transcriptome + simulated 10x Chromium
# reads and run `salmon alevin --rad` (optionally `--sketch`) to produce real
# RAD files (map.rad).  Deterministic for a fixed SEED (the simulation is; salmon
# with -p 1 is too, -p >1 may reorder chunks).
#
# usage: make-salmon-rad.sh OUTDIR SIZE [VARIANT ...]
#   SIZE     small | medium | large | <number of read pairs>
#   VARIANT  GEOMETRY-MODE[-pN], e.g.
#     v3-rad      chromium v3 (16bp CB + 12bp UMI), selective alignment, -p 1
#     v3-sketch   chromium v3, --sketch (pseudoalignment), -p 1
#     v2-rad      chromium v2 (16bp CB + 10bp UMI), selective alignment, -p 1
#     v3-rad-p2   as v3-rad with -p 2 (salmon keeps 1 thread for parsing, so
#                 this is byte-identical to -p 1)
#     v3-rad-p3   -p 3 = 2 mapping threads: chunks from both threads interleave,
#                 output is NOT reproducible run to run
#   default variants: small -> v3-rad v3-sketch v2-rad v3-rad-p2 v3-rad-p3
#                     medium -> v3-rad v3-rad-p3 v3-sketch-p3 ; large/number -> v3-rad-p3
#   sizes: small = 20000 read pairs, 150 genes, 300 cells
#          medium = 80000 pairs, 1000 genes, 500 cells
#          large = 5000000 pairs, 1000 genes, 500 cells (~95 MB RAD, FASTQ ~1.4 GB temp)
# env: SEED (default 7), KMER (default 23),
#      KEEP_FASTQ=1 to keep the simulated FASTQ files, POLYT (default 0: number
#      of T bases appended to R1 after the UMI)
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,26p' "$0"; exit 1
fi
OUT=$1; SIZE=$2; shift 2
SEED=${SEED:-7}
KMER=${KMER:-23}
POLYT=${POLYT:-0}
command -v salmon >/dev/null || { echo "salmon not found (apt-get install salmon)"; exit 1; }
command -v python3 >/dev/null || { echo "python3 not found"; exit 1; }

case "$SIZE" in
  small)  NREADS=20000;  NGENES=150;  NCELLS=300 ;;
  medium) NREADS=80000;  NGENES=1000; NCELLS=500 ;;
  large)  NREADS=5000000; NGENES=1000; NCELLS=500 ;;
  *[!0-9]*|'') echo "bad SIZE: $SIZE"; exit 1 ;;
  *)      NREADS=$SIZE; NGENES=1000; NCELLS=500 ;;
esac
if [ $# -gt 0 ]; then VARIANTS=("$@")
elif [ "$SIZE" = small ]; then VARIANTS=(v3-rad v3-sketch v2-rad v3-rad-p2 v3-rad-p3)
elif [ "$SIZE" = medium ]; then VARIANTS=(v3-rad v3-rad-p3 v3-sketch-p3)
else VARIANTS=(v3-rad-p3); fi

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
REF="$OUT/ref"; mkdir -p "$REF"
echo "== $(salmon --version 2>&1) ; seed=$SEED k=$KMER reads=$NREADS genes=$NGENES cells=$NCELLS"
echo "== output folder: $OUT ; variants: ${VARIANTS[*]}"

need_v2=0; need_v3=0
for v in "${VARIANTS[@]}"; do
  [[ "$v" =~ ^(v2|v3)-(rad|sketch)(-p[0-9]+)?$ ]] || { echo "unknown variant $v"; exit 1; }
  case "$v" in v2-*) need_v2=1 ;; v3-*) need_v3=1 ;; esac
done

# ---------------------------------------------------------------- simulation
SIM_PY=$(cat <<'PYEOF'
import sys, os, time
import numpy as np

out, nreads, ngenes, ncells, seed, umilen, polyt, tag = sys.argv[1:9]
nreads, ngenes, ncells, seed = int(nreads), int(ngenes), int(ncells), int(seed)
umilen, polyt = int(umilen), int(polyt)
ref = os.path.join(out, "ref")
t0 = time.time()
BASES = np.frombuffer(b"ACGT", dtype=np.uint8)
COMP = np.array([3, 2, 1, 0], dtype=np.uint8)   # code complement A<->T C<->G

def rng_for(part):
    # independent deterministic streams per part of the simulation
    return np.random.default_rng([seed, part])

# ---- transcriptome (written once, shared between v2 and v3 read sets)
fa = os.path.join(ref, "transcripts.fa")
if not os.path.exists(fa):
    r = rng_for(1)
    names, seqs, gene_of = [], [], []
    gid = 0
    # a few paralog families: later genes copy an earlier gene with ~2% mutations
    base_genes = []
    for g in range(ngenes):
        L = int(r.integers(700, 3001))
        if g > 10 and r.random() < 0.08:
            src = base_genes[int(r.integers(0, len(base_genes)))].copy()
            mut = r.random(src.size) < 0.02
            src[mut] = (src[mut] + r.integers(1, 4, mut.sum())) % 4
            s = src
        else:
            s = r.integers(0, 4, L).astype(np.uint8)
        base_genes.append(s)
        gname = "GENE%05d" % g
        niso = int(r.choice([1, 1, 1, 2, 2, 3]))
        for k in range(niso):
            if k == 0:
                t = s
            else:
                # alternative isoform: skip an internal "exon" and/or truncate 5'
                a = int(r.integers(100, max(101, s.size // 2)))
                b = a + int(r.integers(60, 400))
                t = np.concatenate([s[:a], s[b:]]) if b < s.size - 200 else s[int(r.integers(50, 300)):]
            if t.size < 500:
                continue
            names.append("TX%05d-%d|%s" % (g, k + 1, gname))
            seqs.append(t)
            gene_of.append(gname)
    with open(fa + ".tmp", "w") as f:
        for n, s in zip(names, seqs):
            txt = BASES[s].tobytes().decode()
            f.write(">" + n + "\n")
            for i in range(0, len(txt), 70):
                f.write(txt[i:i + 70] + "\n")
    os.replace(fa + ".tmp", fa)
    with open(os.path.join(ref, "t2g.tsv"), "w") as f:
        for n, gname in zip(names, gene_of):
            f.write(n + "\t" + gname + "\n")
    with open(os.path.join(ref, "transcript_names.txt"), "w") as f:
        f.write("\n".join(names) + "\n")
    print("   transcriptome: %d transcripts from %d genes, %d bp total" %
          (len(seqs), ngenes, sum(s.size for s in seqs)), flush=True)

# re-read transcriptome (keeps this script restartable)
names, seqs = [], []
cur = []
for line in open(fa):
    if line.startswith(">"):
        if cur: seqs.append("".join(cur)); cur = []
        names.append(line[1:].strip())
    else:
        cur.append(line.strip())
if cur: seqs.append("".join(cur))
lut = np.zeros(256, dtype=np.uint8)
lut[np.frombuffer(b"ACGT", dtype=np.uint8)] = [0, 1, 2, 3]
tx_lens = np.array([len(s) for s in seqs])
tx_start = np.concatenate([[0], np.cumsum(tx_lens)[:-1]])
allseq = lut[np.frombuffer("".join(seqs).encode(), dtype=np.uint8)]
ntx = len(seqs)

# ---- reads
R2LEN = 90
CBLEN = 16
r = rng_for(2)  # same cells/expression for both geometries
cb_codes = r.integers(0, 4, (ncells, CBLEN)).astype(np.uint8)
# skewed cell sizes: a steep head of "real" cells plus a long tail of small ones
rank = np.arange(ncells)
cell_w = 1.0 / (rank + 5.0) ** 1.3
cell_w *= np.exp(r.normal(0, 0.3, ncells))
cell_w /= cell_w.sum()
expr_w = np.exp(r.normal(0, 1.5, ntx)); expr_w /= expr_w.sum()

r = rng_for(3 if umilen == 12 else 4)
prefix = os.path.join(out, "reads_" + tag)
f1 = open(prefix + "_R1.fastq", "wb")
f2 = open(prefix + "_R2.fastq", "wb")
truth = open(prefix + "_truth.tsv", "w") if nreads <= 1000000 else None
if truth:
    truth.write("read\tcb\tumi\tkind\ttx\tpos\tstrand\n")
r1len = CBLEN + umilen + polyt
NAMEW = 10  # "@r" + 9 digits + "\n"
QCH = ord("F")

def fastq_block(ids, seq_ascii):
    n, L = seq_ascii.shape
    rec = 2 + 9 + 1 + L + 1 + 2 + L + 1
    buf = np.empty((n, rec), dtype=np.uint8)
    buf[:, 0] = ord("@"); buf[:, 1] = ord("r")
    v = ids.copy()
    for d in range(8, -1, -1):
        buf[:, 2 + d] = ord("0") + (v % 10); v //= 10
    buf[:, 11] = 10
    buf[:, 12:12 + L] = seq_ascii
    p = 12 + L
    buf[:, p] = 10; buf[:, p + 1] = ord("+"); buf[:, p + 2] = 10
    buf[:, p + 3:p + 3 + L] = QCH
    buf[:, p + 3 + L] = 10
    return buf.tobytes()

BATCH = 250000
done = 0
nj = 0
while done < nreads:
    n = min(BATCH, nreads - done)
    ids = np.arange(done, done + n, dtype=np.int64)
    cell = r.choice(ncells, n, p=cell_w)
    umi = r.integers(0, 4, (n, umilen)).astype(np.uint8)
    r1 = np.concatenate([cb_codes[cell], umi, np.full((n, polyt), 3, np.uint8)], axis=1)
    # rare R1 sequencing errors (~0.1%/base) -> some barcodes off by one
    e1 = r.random(r1.shape) < 0.001
    r1[e1] = (r1[e1] + r.integers(1, 4, e1.sum())) % 4
    junk = r.random(n) < 0.05
    tx = r.choice(ntx, n, p=expr_w)
    maxpos = tx_lens[tx] - R2LEN
    pos = (r.random(n) * (maxpos + 1)).astype(np.int64)
    strand = np.where(r.random(n) < 0.85, 0, 1)   # 0 = sense (fw), 1 = antisense
    idx = (tx_start[tx] + pos)[:, None] + np.arange(R2LEN)[None, :]
    r2 = allseq[idx]
    rc = strand == 1
    r2[rc] = COMP[r2[rc][:, ::-1]]
    r2[junk] = r.integers(0, 4, (int(junk.sum()), R2LEN)).astype(np.uint8)
    e2 = r.random(r2.shape) < 0.005
    r2[e2] = (r2[e2] + r.integers(1, 4, e2.sum())) % 4
    f1.write(fastq_block(ids, BASES[r1]))
    f2.write(fastq_block(ids, BASES[r2]))
    if truth:
        cbs = ["".join("ACGT"[c] for c in row) for row in r1[:, :CBLEN]]
        ums = ["".join("ACGT"[c] for c in row) for row in r1[:, CBLEN:CBLEN + umilen]]
        for i in range(n):
            if junk[i]:
                truth.write("r%09d\t%s\t%s\tjunk\t-1\t-1\t.\n" % (ids[i], cbs[i], ums[i]))
            else:
                truth.write("r%09d\t%s\t%s\ttx\t%d\t%d\t%s\n" % (ids[i], cbs[i], ums[i], tx[i], pos[i], "+-"[strand[i]]))
    nj += int(junk.sum())
    done += n
f1.close(); f2.close()
if truth: truth.close()
with open(prefix + "_barcodes.txt", "w") as f:
    for row, w in zip(cb_codes, cell_w):
        f.write("%s\t%.6g\n" % ("".join("ACGT"[c] for c in row), w))
print("   reads (%s): %d pairs, R1 %d bp, R2 %d bp, %d junk, %.1fs" %
      (tag, nreads, r1len, R2LEN, nj, time.time() - t0), flush=True)
PYEOF
)

now() { date +%s.%N; }
elapsed() { python3 -c "print('%.1f' % ($2 - $1))"; }

if [ $need_v3 = 1 ]; then
  echo "== simulating chromium v3 reads (16bp CB + 12bp UMI)"
  t=$(now); python3 -c "$SIM_PY" "$OUT" "$NREADS" "$NGENES" "$NCELLS" "$SEED" 12 "$POLYT" v3
  echo "   simulation took $(elapsed "$t" "$(now)") s"
fi
if [ $need_v2 = 1 ]; then
  echo "== simulating chromium v2 reads (16bp CB + 10bp UMI)"
  t=$(now); python3 -c "$SIM_PY" "$OUT" "$NREADS" "$NGENES" "$NCELLS" "$SEED" 10 "$POLYT" v2
  echo "   simulation took $(elapsed "$t" "$(now)") s"
fi

IDX="$REF/salmon_index_k$KMER"
if [ ! -f "$IDX/versionInfo.json" ]; then
  echo "== salmon index -t $REF/transcripts.fa -i $IDX -k $KMER -p 2"
  t=$(now)
  salmon index -t "$REF/transcripts.fa" -i "$IDX" -k "$KMER" -p 2 > "$REF/index.log" 2>&1
  echo "   index took $(elapsed "$t" "$(now)") s"
fi

for v in "${VARIANTS[@]}"; do
  geo=${v%%-*}
  if [ "$geo" = v3 ]; then flags=(--chromiumV3 --rad); else flags=(--chromium --rad); fi
  case "$v" in *-sketch*) flags+=(--sketch) ;; esac
  case "$v" in *-p[0-9]*) p=${v##*-p} ;; *) p=1 ;; esac
  od="$OUT/alevin-$v"
  rm -rf "$od"
  cmd=(salmon alevin -l ISR -i "$IDX" -1 "$OUT/reads_${geo}_R1.fastq" -2 "$OUT/reads_${geo}_R2.fastq"
       "${flags[@]}" --tgMap "$REF/t2g.tsv" -p "$p" -o "$od")
  echo "== [$v] ${cmd[*]}"
  t=$(now)
  "${cmd[@]}" > "$OUT/alevin-$v.log" 2>&1 || { echo "   FAILED, see $OUT/alevin-$v.log"; tail -20 "$OUT/alevin-$v.log"; exit 1; }
  dt=$(elapsed "$t" "$(now)")
  echo "   $v took $dt s; $(ls -l "$od/map.rad" | awk '{print $5}') bytes; sha256 $(sha256sum "$od/map.rad" | cut -c1-16)..."
  echo "$v	$dt	${cmd[*]}" >> "$OUT/commands.tsv"
done

if [ "${KEEP_FASTQ:-0}" != 1 ]; then
  for g in v2 v3; do rm -f "$OUT/reads_${g}_R1.fastq" "$OUT/reads_${g}_R2.fastq"; done
  echo "== removed simulated FASTQ (set KEEP_FASTQ=1 to keep)"
fi
echo "== done in ${SECONDS}s total"
