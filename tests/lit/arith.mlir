// Arith, math and conversion ops: modifiers, enum keywords and their diagnostics.

cuda_tile.module @arith {
  testing$func @f(%a: tile<8xf32>, %b: tile<8xf32>, %h: tile<8xf16>, %i: tile<8xi32>, %j: tile<8xi32>,
                  %s: tile<8xi16>, %p: tile<8xptr<f32>>, %q: tile<8xi64>) {
    %0 = addf %a, %b rounding<zero> flush_to_zero : tile<8xf32>
    %1 = subf %a, %b : tile<8xf32>
    %2 = mulf %a, %b rounding<positive_inf> : tile<8xf32>
    %3 = divf %a, %b rounding<approx> flush_to_zero : tile<8xf32>
    %4 = fma %a, %b, %a rounding<negative_inf> : tile<8xf32>
    %5 = maxf %a, %b flush_to_zero propagate_nan : tile<8xf32>
    %6 = minf %a, %b propagate_nan : tile<8xf32>
    %7 = remf %a, %b : tile<8xf32>
    %8 = addi %i, %j overflow<no_signed_wrap> : tile<8xi32>
    %9 = divi %i, %j signed rounding<negative_inf> : tile<8xi32>
    %10 = divi %i, %j unsigned : tile<8xi32>
    %11 = shri %i, %j unsigned : tile<8xi32>
    %12 = mulhii %i, %j : tile<8xi32>
    %13 = negi %i overflow<no_signed_wrap> : tile<8xi32>
    %14 = cmpi greater_than_or_equal %i, %j, signed : tile<8xi32> -> tile<8xi1>
    %15 = cmpf less_than unordered %a, %b : tile<8xf32> -> tile<8xi1>
    %16 = select %15, %a, %b : tile<8xi1>, tile<8xf32>
    %17 = andi %14, %15 : tile<8xi1>
    %18 = tanh %a rounding<approx> : tile<8xf32>
    %19 = exp %a rounding<approx> : tile<8xf32>
    %20 = sqrt %a rounding<approx> flush_to_zero : tile<8xf32>
    %21 = exp2 %h : tile<8xf16>
    %22 = pow %a, %b : tile<8xf32>
    %23 = atan2 %a, %b : tile<8xf32>
    %24 = ftof %a : tile<8xf32> -> tile<8xf16>
    %25 = ftof %h rounding<zero> : tile<8xf16> -> tile<8xf8E8M0FNU>
    %26 = ftoi %a signed : tile<8xf32> -> tile<8xi32>
    %27 = itof %i unsigned : tile<8xi32> -> tile<8xf32>
    %28 = exti %s signed : tile<8xi16> -> tile<8xi32>
    %29 = trunci %i overflow<no_wrap> : tile<8xi32> -> tile<8xi4>
    %30 = bitcast %i : tile<8xi32> -> tile<8xf32>
    %31 = ptr_to_int %p : tile<8xptr<f32>> -> tile<8xi64>
    %32 = int_to_ptr %q : tile<8xi64> -> tile<8xptr<i8>>
    %33 = ptr_to_ptr %32 : tile<8xptr<i8>> -> tile<8xptr<f16>>
  }
}

// -----

cuda_tile.module @bad_keywords {
  testing$func @f(%a: tile<8xf32>, %i: tile<8xi32>) {
    // expected-error @below {{custom op 'cuda_tile.cmpi' expected valid keyword}}
    // expected-error @below {{expected 'comparison_predicate' to be one of: {'equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}}}
    %0 = cmpi %i, %i, signed : tile<8xi32> -> tile<8xi1>
  }
}

// -----

cuda_tile.module @bad_rounding {
  testing$func @f(%a: tile<8xf32>) {
    // expected-error @below {{custom op 'cuda_tile.addf' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'approx'}}
    %0 = addf %a, %a rounding<approx> : tile<8xf32>
  }
}

// -----

cuda_tile.module @bad_modifiers {
  testing$func @f(%h: tile<8xf16>, %i: tile<8xi32>) {
    // expected-error @below {{'cuda_tile.divf' op approx modifier only supported for f32 data type, but got: 'f16'}}
    %0 = divf %h, %h rounding<approx> : tile<8xf16>
    // expected-error @below {{'cuda_tile.divi' op rounding mode 'negative_inf' is not allowed with 'unsigned' flag}}
    %1 = divi %i, %i unsigned rounding<negative_inf> : tile<8xi32>
    // expected-error @below {{'cuda_tile.ftof' op converting tiles must not be a no-op}}
    %2 = ftof %h : tile<8xf16> -> tile<8xf16>
    // expected-error @below {{'cuda_tile.bitcast' op types must be equal width, cannot convert '!cuda_tile.tile<8xi32>' of width 32 to type '!cuda_tile.tile<8xf16>' of width 16}}
    %3 = bitcast %i : tile<8xi32> -> tile<8xf16>
  }
}
