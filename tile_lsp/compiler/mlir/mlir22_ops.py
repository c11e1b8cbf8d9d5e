r"""Names MLIR 22 registers for the dialects the back half models (facts, no code): the
operation names in `libMLIR.so.22.1`, taken once with

    strings -n 4 /usr/lib/llvm-22/lib/libMLIR.so.22.1 | grep -E '^(builtin|gpu|...)\.[a-z_0-9.]+$'

The list also holds some attribute names of those dialects (`gpu.container_module`): it is used
only to tell an op that MLIR 22 does not know (`math.expp`: an error, as mlir-opt says) from one
it knows and tile-lsp does not model (a note).
"""

from __future__ import annotations

_NAMES = {
    "arith": (
        "addf addi addui_extended andi bitcast ceildivsi ceildivui cmpf cmpi constant divf divsi divui extf "
        "extsi extui fastmath floordivsi fptosi fptoui index_cast index_castui maximumf maxnumf maxsi maxui "
        "minimumf minnumf minsi minui mulf muli mulsi_extended mului_extended negf ori overflow remf remsi "
        "remui scaling_extf scaling_truncf select shli shrsi shrui sitofp subf subi truncf trunci uitofp xori "
    ),
    "builtin": (
        "affine_map array bf16 call_site_loc complex dense_array dense_int_or_fp_elements "
        "dense_resource_elements dense_string_elements dictionary distinct f128 f16 f32 f64 f80 "
        "file_line_range float function fused_loc graph index integer integer_set memref module name_loc none "
        "opaque opaque_loc sparse_elements strided_layout string symbol_ref tensor tf32 tuple type unit "
        "unknown_loc unranked_memref unranked_tensor unrealized_conversion_cast vector "
    ),
    "cf": (
        "assert br cond_br switch "
    ),
    "func": (
        "call call_indirect constant func return varargs "
    ),
    "gpu": (
        "address_space all_reduce all_reduce_op alloc async_token barrier binary block block_dim block_id "
        "broadcast cluster_block_id cluster_dim cluster_dim_blocks cluster_id container_module "
        "create_2to4_spmat create_bsr create_coo create_coo_aos create_csc create_csr create_dn_tensor "
        "dealloc destroy_dn_tensor destroy_sp_mat dim dynamic_shared_memory func global_id grid_dim "
        "host_register host_unregister kernel kernel_metadata kernel_table known_block_size "
        "known_cluster_size known_grid_size lane lane_id launch launch_func loop_dim_map mask "
        "mat_transpose_mode memcpy memory_space memset mma_element_wise mma_matrix module num_subgroups "
        "object printf prune_2to4_spmat_flag return rotate sddmm sddmm_buffer_size select_object "
        "set_csr_pointers set_default_device shuffle shuffle_mode sparse.dntensor_handle "
        "sparse.spgemmop_handle sparse.spmat_handle spgemm_copy spgemm_create_descr spgemm_destroy_descr "
        "spgemm_work_estimation_or_compute spgemm_work_estimation_or_compute_kind spmat_get_size spmm "
        "spmm_buffer_size spmv spmv_buffer_size subgroup_broadcast subgroup_id subgroup_mma_compute "
        "subgroup_mma_constant_matrix subgroup_mma_elementwise subgroup_mma_extract_thread_local "
        "subgroup_mma_insert_thread_local subgroup_mma_load_matrix subgroup_mma_store_matrix subgroup_reduce "
        "subgroup_size terminator thread thread_id wait warp warp_execute_on_lane_0 warpgroup yield "
    ),
    "index": (
        "add and bool.constant casts castu ceildivs ceildivu cmp cmp_predicate constant divs divu floordivs "
        "maxs maxu mins minu mul or rems remu shl shrs shru sizeof sub xor "
    ),
    "llvm": (
        "access_group add address_space addrspacecast alias_scope alias_scope_domain align alignstack alloca "
        "allocalign allocptr and array ashr atomicrmw bareptr bitcast blockaddress blocktag br byref byv "
        "byval call call_intrinsic cconv cgprofile_entry cmpxchg comdat comdat_selector commandline cond_br "
        "constant_range data_layout dependent_libraries dereferenceable dereferenceable_or_null di_annotation "
        "di_basic_type di_common_block di_compile_unit di_composite_type di_derived_type di_expression "
        "di_expression_elem di_file di_generic_subrange di_global_variable di_global_variable_expression "
        "di_imported_entity di_label di_lexical_block di_lexical_block_file di_local_variable di_module "
        "di_namespace di_null_type di_string_type di_subprogram di_subrange di_subroutine_type "
        "dso_local_equivalent elementtype emit_c_interface extractelement extractvalue fadd fastmath fcmp "
        "fdiv fence fmul fneg fpext fptosi fptoui fptrunc freeze frem fsub func getelementptr global_ctor "
        "global_ctors global_dtors icmp ident inalloca indirectbr inline_asm inreg insertelement insertvalue "
        "intr.abs intr.acos intr.annotation intr.asin intr.assume intr.atan intr.atan2 intr.bitreverse "
        "intr.bswap intr.ceil intr.copysign intr.coro.align intr.coro.begin intr.coro.end intr.coro.free "
        "intr.coro.id intr.coro.promise intr.coro.resume intr.coro.save intr.coro.size intr.coro.suspend "
        "intr.cos intr.cosh intr.ctlz intr.ctpop intr.cttz intr.dbg.declare intr.dbg.label intr.dbg.value "
        "intr.debugtrap intr.eh.typeid.for intr.exp intr.exp10 intr.exp2 intr.expect "
        "intr.expect.with.probability intr.experimental.constrained.fpext "
        "intr.experimental.constrained.fptrunc intr.experimental.constrained.sitofp "
        "intr.experimental.constrained.uitofp intr.experimental.noalias.scope.decl "
        "intr.experimental.vp.strided.load intr.experimental.vp.strided.store intr.fabs intr.floor intr.fma "
        "intr.fmuladd intr.frexp intr.fshl intr.fshr intr.get.active.lane.mask intr.invariant.end "
        "intr.invariant.start intr.is.constant intr.is.fpclass intr.launder.invariant.group intr.ldexp "
        "intr.lifetime.end intr.lifetime.start intr.llrint intr.llround intr.log intr.log10 intr.log2 "
        "intr.lrint intr.lround intr.masked.compressstore intr.masked.expandload intr.masked.gather "
        "intr.masked.load intr.masked.scatter intr.masked.store intr.matrix.column.major.load "
        "intr.matrix.column.major.store intr.matrix.multiply intr.matrix.transpose intr.maximum intr.maxnum "
        "intr.memcpy intr.memcpy.inline intr.memmove intr.memset intr.memset.inline intr.minimum intr.minnum "
        "intr.nearbyint intr.pow intr.powi intr.prefetch intr.ptr.annotation intr.ptrmask intr.rint "
        "intr.round intr.roundeven intr.sadd.sat intr.sadd.with.overflow intr.scmp intr.sin intr.sincos "
        "intr.sinh intr.smax intr.smin intr.smul.with.overflow intr.sqrt intr.ssa.copy intr.sshl.sat "
        "intr.ssub.sat intr.ssub.with.overflow intr.stackrestore intr.stacksave intr.stepvector "
        "intr.strip.invariant.group intr.tan intr.tanh intr.threadlocal.address intr.trap intr.trunc "
        "intr.uadd.sat intr.uadd.with.overflow intr.ubsantrap intr.ucmp intr.umax intr.umin "
        "intr.umul.with.overflow intr.ushl.sat intr.usub.sat intr.usub.with.overflow intr.vacopy intr.vaend "
        "intr.var.annotation intr.vastart intr.vector.deinterleave2 intr.vector.extract intr.vector.insert "
        "intr.vector.interleave2 intr.vector.reduce.add intr.vector.reduce.and intr.vector.reduce.fadd "
        "intr.vector.reduce.fmax intr.vector.reduce.fmaximum intr.vector.reduce.fmin "
        "intr.vector.reduce.fminimum intr.vector.reduce.fmul intr.vector.reduce.mul intr.vector.reduce.or "
        "intr.vector.reduce.smax intr.vector.reduce.smin intr.vector.reduce.umax intr.vector.reduce.umin "
        "intr.vector.reduce.xor intr.vp.add intr.vp.and intr.vp.ashr intr.vp.fadd intr.vp.fdiv intr.vp.fma "
        "intr.vp.fmul intr.vp.fmuladd intr.vp.fneg intr.vp.fpext intr.vp.fptosi intr.vp.fptoui "
        "intr.vp.fptrunc intr.vp.frem intr.vp.fsub intr.vp.inttoptr intr.vp.load intr.vp.lshr intr.vp.merge "
        "intr.vp.mul intr.vp.or intr.vp.ptrtoint intr.vp.reduce.add intr.vp.reduce.and intr.vp.reduce.fadd "
        "intr.vp.reduce.fmax intr.vp.reduce.fmin intr.vp.reduce.fmul intr.vp.reduce.mul intr.vp.reduce.or "
        "intr.vp.reduce.smax intr.vp.reduce.smin intr.vp.reduce.umax intr.vp.reduce.umin intr.vp.reduce.xor "
        "intr.vp.sdiv intr.vp.select intr.vp.sext intr.vp.shl intr.vp.sitofp intr.vp.smax intr.vp.smin "
        "intr.vp.srem intr.vp.store intr.vp.sub intr.vp.trunc intr.vp.udiv intr.vp.uitofp intr.vp.umax "
        "intr.vp.umin intr.vp.urem intr.vp.xor intr.vp.zext intr.vscale inttoptr invoke label landingpad "
        "licm.disable linkage linker.options linker_options load loop.disable_nonforced "
        "loop.distribute.enable loop.distribute.followup_all loop.distribute.followup_coincident "
        "loop.distribute.followup_fallback loop.distribute.followup_sequential loop.interleave.count "
        "loop.isvectorized loop.licm_versioning.disable loop.mustprogress loop.parallel_accesses "
        "loop.peeled.count loop.pipeline.disable loop.pipeline.initiationinterval loop.unroll.count "
        "loop.unroll.disable loop.unroll.enable loop.unroll.followup_all loop.unroll.followup_remainder "
        "loop.unroll.followup_unrolled loop.unroll.full loop.unroll.runtime.disable loop.unroll_and_jam.count "
        "loop.unroll_and_jam.disable loop.unroll_and_jam.enable loop.unroll_and_jam.followup_all "
        "loop.unroll_and_jam.followup_inner loop.unroll_and_jam.followup_outer "
        "loop.unroll_and_jam.followup_remainder_inner loop.unroll_and_jam.followup_remainder_outer "
        "loop.unswitch.partial.disable loop.vectorize.enable loop.vectorize.followup_all "
        "loop.vectorize.followup_epilogue loop.vectorize.followup_vectorized loop.vectorize.predicate.enable "
        "loop.vectorize.scalable.enable loop.vectorize.width loop_annotation loop_distribute loop_interleave "
        "loop_licm loop_peeled loop_pipeline loop_unroll loop_unroll_and_jam loop_unswitch loop_vectorize "
        "lshr memory_effects metadata mlir.addressof mlir.alias mlir.constant mlir.global mlir.global_ctors "
        "mlir.global_dtors mlir.ifunc mlir.module_flag mlir.none mlir.poison mlir.undef "
        "mlir.workgroup_attribution mlir.zero mmra mmra_tag module_asm module_flags mul nest noalias "
        "nocapture nofree nonnull noundef or overflow poison ppc_fp128 preallocated profile_summary "
        "profile_summary_detailed ptr ptrtoint range readnone readonly resume return returned sdiv select "
        "sext shl shufflevector signext sitofp srem sret store struct sub switch tailcallkind target "
        "target_features target_triple tbaa_member tbaa_root tbaa_tag tbaa_type_desc token trunc udiv uitofp "
        "undef unreachable urem va_arg vec_type_hint void vscale_range workgroup_attribution writeonly "
        "x86.avx.dp.ps.256 x86.avx.rsqrt.ps.256 x86.avx2.vpdpbssd x86.avx512.mask.compress "
        "x86.avx512.mask.rndscale x86.avx512.mask.scalef x86.avx512.vp2intersect x86.avx512bf16.cvtneps2bf16 "
        "x86.avx512bf16.dpbf16ps x86.tileloadd64.internal x86.tilestored64.internal x86.tilezero.internal "
        "x86_amx xor zero zeroext zext "
    ),
    "math": (
        "absf absi acos acosh asin asinh atan atan2 atanh cbrt ceil clampf copysign cos cosh ctlz ctpop cttz "
        "erf erfc exp exp2 expm1 floor fma fpowi ipowi isfinite isinf isnan isnormal log log10 log1p log2 "
        "powf round roundeven rsqrt sin sincos sinh sqrt tan tanh trunc "
    ),
    "memref": (
        "alloc alloca alloca_scope alloca_scope.return assume_alignment atomic_rmw atomic_yield cast "
        "collapse_shape copy dealloc dim distinct_objects dma_start dma_wait expand_shape "
        "extract_aligned_pointer_as_index extract_strided_metadata generic_atomic_rmw get_global global load "
        "memory_space_cast prefetch rank realloc reinterpret_cast reshape store subview transpose view "
    ),
    "nvgpu": (
        "device.async.token device_async_copy device_async_create_group device_async_wait interleave l2promo "
        "ldmatrix mbarrier.arrive mbarrier.arrive.expect_tx mbarrier.arrive.nocomplete mbarrier.create "
        "mbarrier.get mbarrier.group mbarrier.init mbarrier.test.wait mbarrier.token mbarrier.try_wait.parity "
        "mma.sp.sync mma.sync oob rcp rcp_rounding_mode swizzle tensormap.descriptor tma.async.load "
        "tma.async.store tma.create.descriptor tma.fence.descriptor tma.prefetch.descriptor "
        "warpgroup.accumulator warpgroup.descriptor warpgroup.generate.descriptor warpgroup.mma "
        "warpgroup.mma.init.accumulator warpgroup.mma.store "
    ),
    "nvvm": (
        "action bar.warp.sync barrier barrier.arrive barrier0 block_scale_format block_scale_kind "
        "blocksareclusters breakpoint cache_eviction_priority cluster.arrive cluster.arrive.relaxed "
        "cluster.wait cluster_dim cluster_launch_control_query_type cluster_max "
        "clusterlaunchcontrol.query.cancel clusterlaunchcontrol.try.cancel convert.bf16x2.to.f8x2 "
        "convert.f16x2.to.f8x2 convert.f32x2.to.bf16x2 convert.f32x2.to.f16x2 convert.f32x2.to.f4x2 "
        "convert.f32x2.to.f6x2 convert.f32x2.to.f8x2 convert.f32x4.to.f4x4 convert.f32x4.to.f6x4 "
        "convert.f32x4.to.f8x4 convert.f4x2.to.f16x2 convert.f6x2.to.f16x2 convert.f8x2.to.bf16x2 "
        "convert.f8x2.to.f16x2 convert.float.to.tf32 cp.async.bulk.commit.group "
        "cp.async.bulk.global.shared.cta cp.async.bulk.prefetch cp.async.bulk.shared.cluster.global "
        "cp.async.bulk.shared.cluster.shared.cta cp.async.bulk.tensor.global.shared.cta "
        "cp.async.bulk.tensor.prefetch cp.async.bulk.tensor.reduce cp.async.bulk.tensor.shared.cluster.global "
        "cp.async.bulk.wait_group cp.async.commit.group cp.async.mbarrier.arrive cp.async.shared.global "
        "cp.async.wait.group cta_group dot.accumulate.2way dot.accumulate.4way dot_accumulate_type elect.sync "
        "exit fence.mbarrier.init fence.proxy fence.proxy.acquire fence.proxy.release "
        "fence.proxy.sync_restrict fence.sc.cluster fence.sync_restrict fp_rnd_mode grid_constant "
        "grid_dep_action griddepcontrol inline_ptx kernel ld_st_matrix_elt_type ld_st_matrix_shape ldmatrix "
        "load_cache_modifier mapa match.sync match_sync_kind maxclusterrank maxnreg maxntid mbarrier.arrive "
        "mbarrier.arrive.expect_tx mbarrier.arrive.nocomplete mbarrier.arrive_drop "
        "mbarrier.arrive_drop.expect_tx mbarrier.arrive_drop.nocomplete mbarrier.complete_tx "
        "mbarrier.expect_tx mbarrier.init mbarrier.inval mbarrier.test.wait mbarrier.try_wait "
        "mbarrier.try_wait.parity mem_order mem_scope memory.barrier memory_space minctasm mma.block_scale "
        "mma.sp.block_scale mma.sp.sync mma.sync mma_b1op mma_frag mma_int_overflow mma_kind mma_layout "
        "mma_type nanosleep permute_mode pmevent prefetch prefetch_cache_level prmt proxy_kind "
        "rcp.approx.ftz.f read.ptx.sreg.aggr.smem.size read.ptx.sreg.clock read.ptx.sreg.clock64 "
        "read.ptx.sreg.cluster.ctaid.x read.ptx.sreg.cluster.ctaid.y read.ptx.sreg.cluster.ctaid.z "
        "read.ptx.sreg.cluster.ctarank read.ptx.sreg.cluster.nctaid.x read.ptx.sreg.cluster.nctaid.y "
        "read.ptx.sreg.cluster.nctaid.z read.ptx.sreg.cluster.nctarank read.ptx.sreg.clusterid.x "
        "read.ptx.sreg.clusterid.y read.ptx.sreg.clusterid.z read.ptx.sreg.ctaid.x read.ptx.sreg.ctaid.y "
        "read.ptx.sreg.ctaid.z read.ptx.sreg.dynamic.smem.size read.ptx.sreg.envreg0 read.ptx.sreg.envreg1 "
        "read.ptx.sreg.envreg10 read.ptx.sreg.envreg11 read.ptx.sreg.envreg12 read.ptx.sreg.envreg13 "
        "read.ptx.sreg.envreg14 read.ptx.sreg.envreg15 read.ptx.sreg.envreg16 read.ptx.sreg.envreg17 "
        "read.ptx.sreg.envreg18 read.ptx.sreg.envreg19 read.ptx.sreg.envreg2 read.ptx.sreg.envreg20 "
        "read.ptx.sreg.envreg21 read.ptx.sreg.envreg22 read.ptx.sreg.envreg23 read.ptx.sreg.envreg24 "
        "read.ptx.sreg.envreg25 read.ptx.sreg.envreg26 read.ptx.sreg.envreg27 read.ptx.sreg.envreg28 "
        "read.ptx.sreg.envreg29 read.ptx.sreg.envreg3 read.ptx.sreg.envreg30 read.ptx.sreg.envreg31 "
        "read.ptx.sreg.envreg4 read.ptx.sreg.envreg5 read.ptx.sreg.envreg6 read.ptx.sreg.envreg7 "
        "read.ptx.sreg.envreg8 read.ptx.sreg.envreg9 read.ptx.sreg.globaltimer read.ptx.sreg.globaltimer.lo "
        "read.ptx.sreg.gridid read.ptx.sreg.laneid read.ptx.sreg.lanemask.eq read.ptx.sreg.lanemask.ge "
        "read.ptx.sreg.lanemask.gt read.ptx.sreg.lanemask.le read.ptx.sreg.lanemask.lt "
        "read.ptx.sreg.nclusterid.x read.ptx.sreg.nclusterid.y read.ptx.sreg.nclusterid.z "
        "read.ptx.sreg.nctaid.x read.ptx.sreg.nctaid.y read.ptx.sreg.nctaid.z read.ptx.sreg.nsmid "
        "read.ptx.sreg.ntid.x read.ptx.sreg.ntid.y read.ptx.sreg.ntid.z read.ptx.sreg.nwarpid "
        "read.ptx.sreg.smid read.ptx.sreg.tid.x read.ptx.sreg.tid.y read.ptx.sreg.tid.z "
        "read.ptx.sreg.total.smem.size read.ptx.sreg.warpid read.ptx.sreg.warpsize reduction redux.sync "
        "redux_kind reqntid sat_mode scale_vec_size setmaxregister shape shared_space shfl.sync shfl_kind "
        "st.bulk stmatrix target tcgen05.alloc tcgen05.commit tcgen05.cp tcgen05.dealloc tcgen05.fence "
        "tcgen05.ld tcgen05.mma tcgen05.mma.block_scale tcgen05.mma.sp tcgen05.mma.sp.block_scale "
        "tcgen05.mma.ws tcgen05.mma.ws.sp tcgen05.mma_smem_desc tcgen05.relinquish_alloc_permit tcgen05.shift "
        "tcgen05.st tcgen05.wait tcgen05_cp_multicast tcgen05_cp_shape tcgen05_cp_src_fmt tcgen05_fence "
        "tcgen05_ldst_shape tcgen05_mma_block_scale tcgen05_mma_collectorb tcgen05_mma_collectorop "
        "tcgen05_mma_kind tcgen05_wait tma_load_mode tma_redux_kind tma_store_mode vote.sync vote_sync_kind "
        "wgmma.commit.group.sync.aligned wgmma.fence.aligned wgmma.mma_async wgmma.wait.group.sync.aligned "
        "wgmma_scale_in wgmma_scale_out wgmma_type wmma.load wmma.mma wmma.store "
    ),
    "scf": (
        "3 condition execute_region for forall forall.in_parallel if index_switch parallel reduce "
        "reduce.return while yield "
    ),
    "ub": (
        "poison unreachable "
    ),
    "vector": (
        "bitcast broadcast compressstore constant_mask contract create_mask deinterleave expandload extract "
        "extract_strided_slice fma from_elements gather insert insert_strided_slice interleave iterator_type "
        "kind load mask maskedload maskedstore multi_reduction outerproduct print punctuation reduction "
        "scalable.extract scalable.insert scan scatter shape_cast shuffle step store to_elements "
        "transfer_read transfer_write transpose type_cast vscale yield "
    ),
}

MLIR22_NAMES: frozenset[str] = frozenset(f"{d}.{n}" for d, words in _NAMES.items() for n in words.split())


def known_to_mlir22(name: str) -> bool | None:
    """Whether MLIR 22 has `name`; None when its dialect is not one this list covers."""
    dialect = name.split(".", 1)[0]
    if dialect not in _NAMES:
        return None
    return name in MLIR22_NAMES
