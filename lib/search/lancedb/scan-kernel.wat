;; The IVF/exact scan kernel (vector-scan.ts scanRange) in WebAssembly SIMD: for rows r in [from, to),
;; out[r] = sum over j ascending of f64(cols[used[j] * rows + r]) * qv[j], in double precision, the same operations in
;; the same order as the JavaScript loop (a float32 widened to double and multiplied by a float32 query component held
;; as a double is exact; each addition is one IEEE double addition), so the sums are bit-identical; two rows a lane pair, eight components a pass.
;; Regenerate the bytes in scan-kernel.ts with: npx -p wabt@1.0.39 wat2wasm scan-kernel.wat -o k.wasm && base64 -w0 k.wasm
(module
  (import "env" "memory" (memory 1))
  ;; cols, used, qv, out: byte offsets in memory (float32 columns, int32 components, float64 query values, float64 sums).
  (func (export "scan")
    (param $cols i32) (param $rows i32) (param $used i32) (param $qv i32) (param $m i32)
    (param $out i32) (param $from i32) (param $to i32)
    (local $j i32) (local $r i32) (local $p i32) (local $acc v128) (local $s f64)
    (local $c0 i32) (local $c1 i32) (local $c2 i32) (local $c3 i32) (local $c4 i32) (local $c5 i32) (local $c6 i32) (local $c7 i32)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128) (local $q4 v128) (local $q5 v128) (local $q6 v128) (local $q7 v128)
    (local $stride i32) (local $pairEnd i32)
    (memory.fill
      (i32.add (local.get $out) (i32.shl (local.get $from) (i32.const 3)))
      (i32.const 0)
      (i32.shl (i32.sub (local.get $to) (local.get $from)) (i32.const 3)))
    (local.set $stride (i32.shl (local.get $rows) (i32.const 2)))
    ;; the last row of whole pairs
    (local.set $pairEnd (i32.sub (local.get $to) (i32.and (i32.sub (local.get $to) (local.get $from)) (i32.const 1))))
    (local.set $j (i32.const 0))
    ;; 8 components a pass: each row pair's running sums stay in a register for 8 additions
    (block $done8
      (loop $group8
        (br_if $done8 (i32.gt_s (i32.add (local.get $j) (i32.const 8)) (local.get $m)))
        (local.set $c0 (i32.add (local.get $cols) (i32.mul (i32.load offset=0 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $c1 (i32.add (local.get $cols) (i32.mul (i32.load offset=4 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $c2 (i32.add (local.get $cols) (i32.mul (i32.load offset=8 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $c3 (i32.add (local.get $cols) (i32.mul (i32.load offset=12 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $c4 (i32.add (local.get $cols) (i32.mul (i32.load offset=16 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $c5 (i32.add (local.get $cols) (i32.mul (i32.load offset=20 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $c6 (i32.add (local.get $cols) (i32.mul (i32.load offset=24 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $c7 (i32.add (local.get $cols) (i32.mul (i32.load offset=28 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $q0 (f64x2.splat (f64.load offset=0 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $q1 (f64x2.splat (f64.load offset=8 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $q2 (f64x2.splat (f64.load offset=16 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $q3 (f64x2.splat (f64.load offset=24 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $q4 (f64x2.splat (f64.load offset=32 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $q5 (f64x2.splat (f64.load offset=40 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $q6 (f64x2.splat (f64.load offset=48 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $q7 (f64x2.splat (f64.load offset=56 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $r (local.get $from))
        (block $pairsDone8
          (loop $pairs8
            (br_if $pairsDone8 (i32.ge_s (local.get $r) (local.get $pairEnd)))
            (local.set $p (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))))
            (local.set $acc (v128.load (local.get $p)))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c0) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q0))))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c1) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q1))))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c2) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q2))))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c3) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q3))))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c4) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q4))))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c5) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q5))))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c6) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q6))))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c7) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q7))))
            (v128.store (local.get $p) (local.get $acc))
            (local.set $r (i32.add (local.get $r) (i32.const 2)))
            (br $pairs8)))
        ;; an odd last row
        (if (i32.lt_s (local.get $r) (local.get $to))
          (then
            (local.set $p (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))))
            (local.set $s (f64.load (local.get $p)))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c0) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q0)))))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c1) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q1)))))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c2) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q2)))))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c3) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q3)))))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c4) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q4)))))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c5) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q5)))))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c6) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q6)))))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c7) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q7)))))
            (f64.store (local.get $p) (local.get $s))))
        (local.set $j (i32.add (local.get $j) (i32.const 8)))
        (br $group8)))
    ;; then four, then one at a time
    (block $done4
      (loop $group4
        (br_if $done4 (i32.gt_s (i32.add (local.get $j) (i32.const 4)) (local.get $m)))
        (local.set $c0 (i32.add (local.get $cols) (i32.mul (i32.load offset=0 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $c1 (i32.add (local.get $cols) (i32.mul (i32.load offset=4 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $c2 (i32.add (local.get $cols) (i32.mul (i32.load offset=8 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $c3 (i32.add (local.get $cols) (i32.mul (i32.load offset=12 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $q0 (f64x2.splat (f64.load offset=0 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $q1 (f64x2.splat (f64.load offset=8 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $q2 (f64x2.splat (f64.load offset=16 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $q3 (f64x2.splat (f64.load offset=24 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $r (local.get $from))
        (block $pairsDone4
          (loop $pairs4
            (br_if $pairsDone4 (i32.ge_s (local.get $r) (local.get $pairEnd)))
            (local.set $p (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))))
            (local.set $acc (v128.load (local.get $p)))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c0) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q0))))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c1) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q1))))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c2) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q2))))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c3) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q3))))
            (v128.store (local.get $p) (local.get $acc))
            (local.set $r (i32.add (local.get $r) (i32.const 2)))
            (br $pairs4)))
        ;; an odd last row
        (if (i32.lt_s (local.get $r) (local.get $to))
          (then
            (local.set $p (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))))
            (local.set $s (f64.load (local.get $p)))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c0) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q0)))))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c1) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q1)))))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c2) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q2)))))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c3) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q3)))))
            (f64.store (local.get $p) (local.get $s))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $group4)))
    (block $done1
      (loop $group1
        (br_if $done1 (i32.ge_s (local.get $j) (local.get $m)))
        (local.set $c0 (i32.add (local.get $cols) (i32.mul (i32.load offset=0 (i32.add (local.get $used) (i32.shl (local.get $j) (i32.const 2)))) (local.get $stride))))
        (local.set $q0 (f64x2.splat (f64.load offset=0 (i32.add (local.get $qv) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $r (local.get $from))
        (block $pairsDone1
          (loop $pairs1
            (br_if $pairsDone1 (i32.ge_s (local.get $r) (local.get $pairEnd)))
            (local.set $p (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))))
            (local.set $acc (v128.load (local.get $p)))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c0) (i32.shl (local.get $r) (i32.const 2))))) (local.get $q0))))
            (v128.store (local.get $p) (local.get $acc))
            (local.set $r (i32.add (local.get $r) (i32.const 2)))
            (br $pairs1)))
        ;; an odd last row
        (if (i32.lt_s (local.get $r) (local.get $to))
          (then
            (local.set $p (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))))
            (local.set $s (f64.load (local.get $p)))
            (local.set $s (f64.add (local.get $s) (f64.mul (f64.promote_f32 (f32.load (i32.add (local.get $c0) (i32.shl (local.get $r) (i32.const 2))))) (f64x2.extract_lane 0 (local.get $q0)))))
            (f64.store (local.get $p) (local.get $s))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $group1)))
  )
)
