;; Multi-literal scanner (Teddy-style) for `literals.ts`. Assembled by
;; `packages/core/scripts/build-scan-wasm.mjs` into `literals.wasm.ts`; edit this file, then run
;; `node packages/core/scripts/build-scan-wasm.mjs`.
;;
;; Memory layout (byte offsets; `literals.ts` writes the tables and the text):
;;   0..96       nibble masks: for fingerprint byte k = 0..2, LO_k at 32k, HI_k at 32k + 16.
;;               Lane i of LO_k has bit b set when a literal of bucket b may have a byte with low
;;               nibble i at offset k (HI_k: high nibble), after folding (byte | 0x20). Unused
;;               k: all 0xff.
;;   96..112     scratch: the candidate lanes of one block
;;   128..192    buckets: 8 x (first entry index i32, entry count i32)
;;   256..65536  entries: (literal bytes offset i32, length i32, literal id i32), sorted by id
;;               within a bucket
;;   65536..     literal bytes (lower case when folding)
;;   131072..    hits: (UTF-16 offset from the chunk start i32, literal id i32), at most `cap`
;;   196608..    the chunk's UTF-8 bytes, then >= 32 bytes of slack (read, never trusted)
(module
  (memory (export "memory") 4)
  ;; Where a call stopped (output full) or ended: next start byte, and the byte/UTF-16 cursor.
  (global $rPos (export "rPos") (mut i32) (i32.const 0))
  (global $rCb (export "rCb") (mut i32) (i32.const 0))
  (global $rCu (export "rCu") (mut i32) (i32.const 0))

  ;; UTF-16 code units encoded by the UTF-8 bytes [cb, target): one per byte that is not a
  ;; continuation byte, one more per 4-byte leader. An all-ASCII 16-byte block adds 16.
  (func $units (param $cb i32) (param $target i32) (result i32)
    (local $u i32) (local $v v128) (local $b i32)
    (block $done
      (loop $block
        (br_if $done (i32.gt_u (i32.add (local.get $cb) (i32.const 16)) (local.get $target)))
        (local.set $v (v128.load (local.get $cb)))
        (if (i32.eqz (i8x16.bitmask (local.get $v)))
          (then (local.set $u (i32.add (local.get $u) (i32.const 16))))
          (else
            (local.set $u
              (i32.add (local.get $u)
                (i32.add
                  (i32.sub (i32.const 16)
                    (i32.popcnt (i8x16.bitmask
                      (i8x16.eq (v128.and (local.get $v) (v128.const i8x16 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0))
                                (v128.const i8x16 0x80 0x80 0x80 0x80 0x80 0x80 0x80 0x80 0x80 0x80 0x80 0x80 0x80 0x80 0x80 0x80)))))
                  (i32.popcnt (i8x16.bitmask
                    (i8x16.ge_u (local.get $v) (v128.const i8x16 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0 0xf0)))))))))
        (local.set $cb (i32.add (local.get $cb) (i32.const 16)))
        (br $block)))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $cb) (local.get $target)))
        (local.set $b (i32.load8_u (local.get $cb)))
        (if (i32.ne (i32.and (local.get $b) (i32.const 0xc0)) (i32.const 0x80))
          (then (local.set $u (i32.add (local.get $u) (i32.const 1)))))
        (if (i32.ge_u (local.get $b) (i32.const 0xf0))
          (then (local.set $u (i32.add (local.get $u) (i32.const 1)))))
        (local.set $cb (i32.add (local.get $cb) (i32.const 1)))
        (br $tail)))
    (local.get $u))

  ;; Do the `len` literal bytes at `lit` equal the text bytes at `at` (ASCII letters folded to
  ;; lower case when `fold`)?
  (func $equal (param $at i32) (param $lit i32) (param $len i32) (param $fold i32) (result i32)
    (local $k i32) (local $t i32)
    (block $no
      (loop $next
        (if (i32.ge_u (local.get $k) (local.get $len)) (then (return (i32.const 1))))
        (local.set $t (i32.load8_u (i32.add (local.get $at) (local.get $k))))
        (if (i32.and (local.get $fold) (i32.lt_u (i32.sub (local.get $t) (i32.const 65)) (i32.const 26)))
          (then (local.set $t (i32.or (local.get $t) (i32.const 32)))))
        (br_if $no (i32.ne (local.get $t) (i32.load8_u (i32.add (local.get $lit) (local.get $k)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (i32.const 0))

  ;; Lowest id of a literal of the buckets in `buckets` (a bit set) that begins at `at` and ends
  ;; by `dataEnd`, or -1.
  (func $verify (param $at i32) (param $buckets i32) (param $dataEnd i32) (param $fold i32) (result i32)
    (local $best i32) (local $b i32) (local $e i32) (local $last i32) (local $id i32) (local $len i32)
    (local.set $best (i32.const -1))
    (block $done
      (loop $bucket
        (br_if $done (i32.eqz (local.get $buckets)))
        (local.set $b (i32.ctz (local.get $buckets)))
        (local.set $buckets (i32.and (local.get $buckets) (i32.sub (local.get $buckets) (i32.const 1))))
        (local.set $e (i32.add (i32.const 256) (i32.mul (i32.load (i32.add (i32.const 128) (i32.shl (local.get $b) (i32.const 3)))) (i32.const 12))))
        (local.set $last (i32.add (local.get $e) (i32.mul (i32.load (i32.add (i32.const 132) (i32.shl (local.get $b) (i32.const 3)))) (i32.const 12))))
        (block $bucketDone
          (loop $entry
            (br_if $bucketDone (i32.ge_u (local.get $e) (local.get $last)))
            (local.set $id (i32.load offset=8 (local.get $e)))
            ;; entries are sorted by id: none further in this bucket can beat `best`
            (br_if $bucketDone (i32.and (i32.ge_s (local.get $best) (i32.const 0)) (i32.ge_s (local.get $id) (local.get $best))))
            (local.set $len (i32.load offset=4 (local.get $e)))
            (if (i32.le_u (i32.add (local.get $at) (local.get $len)) (local.get $dataEnd))
              (then
                (if (call $equal (local.get $at) (i32.load (local.get $e)) (local.get $len) (local.get $fold))
                  (then
                    (local.set $best (local.get $id))
                    (br $bucketDone)))))
            (local.set $e (i32.add (local.get $e) (i32.const 12)))
            (br $entry)))
        (br $bucket)))
    (local.get $best))

  ;; Scans the start bytes [p, scanEnd) (a literal may run on to dataEnd) and writes each start
  ;; where a literal begins as (UTF-16 offset, lowest literal id) at 131072, at most `cap` of
  ;; them. `cb`/`cu` is a cursor: byte `cb` is UTF-16 offset `cu`. Returns the hit count and
  ;; leaves in rPos the next start byte to scan (>= scanEnd when done) and the cursor in rCb/rCu.
  (func (export "scan") (param $p i32) (param $scanEnd i32) (param $dataEnd i32) (param $fold i32)
      (param $cb i32) (param $cu i32) (param $cap i32) (result i32)
    (local $lo0 v128) (local $hi0 v128) (local $lo1 v128) (local $hi1 v128) (local $lo2 v128) (local $hi2 v128)
    (local $v v128) (local $res v128) (local $bits i32) (local $j i32) (local $q i32) (local $id i32) (local $n i32)
    (local $nib v128)
    (local $foldv v128)
    (local.set $nib (v128.const i8x16 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f 0x0f))
    ;; folding: every byte ORed with 0x20 before the masks (A-Z become a-z; other bytes may become
    ;; false candidates, never missed ones: the masks hold the literals' bytes ORed the same way)
    (local.set $foldv (i8x16.splat (i32.mul (local.get $fold) (i32.const 0x20))))
    (local.set $lo0 (v128.load (i32.const 0)))
    (local.set $hi0 (v128.load (i32.const 16)))
    (local.set $lo1 (v128.load (i32.const 32)))
    (local.set $hi1 (v128.load (i32.const 48)))
    (local.set $lo2 (v128.load (i32.const 64)))
    (local.set $hi2 (v128.load (i32.const 80)))
    (block $done
      (loop $block
        (br_if $done (i32.ge_u (local.get $p) (local.get $scanEnd)))
        (local.set $v (v128.or (v128.load (local.get $p)) (local.get $foldv)))
        (local.set $res
          (v128.and
            (i8x16.swizzle (local.get $lo0) (v128.and (local.get $v) (local.get $nib)))
            (i8x16.swizzle (local.get $hi0) (i8x16.shr_u (local.get $v) (i32.const 4)))))
        (local.set $v (v128.or (v128.load offset=1 (local.get $p)) (local.get $foldv)))
        (local.set $res
          (v128.and (local.get $res)
            (v128.and
              (i8x16.swizzle (local.get $lo1) (v128.and (local.get $v) (local.get $nib)))
              (i8x16.swizzle (local.get $hi1) (i8x16.shr_u (local.get $v) (i32.const 4))))))
        (local.set $v (v128.or (v128.load offset=2 (local.get $p)) (local.get $foldv)))
        (local.set $res
          (v128.and (local.get $res)
            (v128.and
              (i8x16.swizzle (local.get $lo2) (v128.and (local.get $v) (local.get $nib)))
              (i8x16.swizzle (local.get $hi2) (i8x16.shr_u (local.get $v) (i32.const 4))))))
        (if (v128.any_true (local.get $res))
          (then
            (local.set $bits (i8x16.bitmask (i8x16.ne (local.get $res) (v128.const i64x2 0 0))))
            ;; the last block: no start at or past scanEnd
            (if (i32.lt_u (i32.sub (local.get $scanEnd) (local.get $p)) (i32.const 16))
              (then (local.set $bits (i32.and (local.get $bits)
                (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $scanEnd) (local.get $p))) (i32.const 1))))))
            (v128.store (i32.const 96) (local.get $res))
            (block $lanesDone
              (loop $lane
                (br_if $lanesDone (i32.eqz (local.get $bits)))
                (local.set $j (i32.ctz (local.get $bits)))
                (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
                (local.set $q (i32.add (local.get $p) (local.get $j)))
                (local.set $id (call $verify (local.get $q) (i32.load8_u (i32.add (i32.const 96) (local.get $j))) (local.get $dataEnd) (local.get $fold)))
                (if (i32.ge_s (local.get $id) (i32.const 0))
                  (then
                    (if (i32.ge_u (local.get $n) (local.get $cap))
                      (then
                        (global.set $rPos (local.get $q))
                        (global.set $rCb (local.get $cb))
                        (global.set $rCu (local.get $cu))
                        (return (local.get $n))))
                    (local.set $cu (i32.add (local.get $cu) (call $units (local.get $cb) (local.get $q))))
                    (local.set $cb (local.get $q))
                    (i32.store (i32.add (i32.const 131072) (i32.shl (local.get $n) (i32.const 3))) (local.get $cu))
                    (i32.store offset=4 (i32.add (i32.const 131072) (i32.shl (local.get $n) (i32.const 3))) (local.get $id))
                    (local.set $n (i32.add (local.get $n) (i32.const 1)))))
                (br $lane)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $block)))
    (global.set $rPos (local.get $p))
    (global.set $rCb (local.get $cb))
    (global.set $rCu (local.get $cu))
    (local.get $n))
)
