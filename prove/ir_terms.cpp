#include "ir_terms.hpp"

#include <atomic>
#include <climits>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/raw_ostream.h>

namespace flipcheck::prove {

namespace {

unsigned width_of(const llvm::Type* t) {
    if (t->isIntegerTy()) return t->getIntegerBitWidth();
    if (t->isHalfTy() || t->isBFloatTy()) return 16;
    if (t->isFloatTy()) return 32;
    if (t->isDoubleTy()) return 64;
    return 0;  // vectors, pointers, aggregates, x86_fp80: refused where met
}

std::string source_line(const llvm::Instruction& i) {
    if (const llvm::DILocation* loc = i.getDebugLoc().get()) return loc->getFilename().str() + ":" + std::to_string(loc->getLine());
    return "(no source line: the code was compiled without -g)";
}

std::string shown(const llvm::Instruction& i) {
    std::string s;
    llvm::raw_string_ostream out(s);
    i.print(out);
    out.flush();
    const auto bang = s.find(", !dbg");
    if (bang != std::string::npos) s.erase(bang);
    return s.substr(s.find_first_not_of(' '));
}

// A value's bits and whether it is poison (LLVM's deferred undefined behaviour: an overflowing
// nsw add, a shift by the width or more): poison that reaches the result or a branch is undefined
// behaviour, which `defined` excludes and the proof reports instead of reasoning past it.
struct term {
    z3::expr bits, poison;
};

class translator {
public:
    translator(z3::context& c, const llvm::Function& f, unsigned depth = 0) : c_(c), f_(f), depth_(depth) {}

    function_term run(const std::vector<z3::expr>& args) {
        if (f_.isDeclaration()) throw refusal("function " + f_.getName().str() + " has no body in the compiled code");
        if (args.size() != f_.arg_size()) throw refusal("function " + f_.getName().str() + " takes " + std::to_string(f_.arg_size()) + " arguments");
        for (const llvm::Argument& a : f_.args()) {
            if (width_of(a.getType()) != args[a.getArgNo()].get_sort().bv_size())
                throw refusal("function " + f_.getName().str() + ": argument " + std::to_string(a.getArgNo()) + " is not " +
                              std::to_string(args[a.getArgNo()].get_sort().bv_size()) + " bits");
            values_.emplace(&a, term{args[a.getArgNo()], c_.bool_val(false)});
        }
        if (width_of(f_.getReturnType()) == 0) throw refusal("function " + f_.getName().str() + " does not return a number");

        std::set<const llvm::BasicBlock*> seen;
        std::optional<z3::expr> result, result_poison;
        z3::expr undefined = c_.bool_val(false);
        llvm::ReversePostOrderTraversal<const llvm::Function*> order(&f_);
        for (const llvm::BasicBlock* block : order) {
            seen.insert(block);
            for (const llvm::BasicBlock* next : llvm::successors(block))
                if (seen.count(next))
                    throw refusal("a loop that clang did not unroll at " + source_line(*block->getTerminator()) +
                                  ": the prover reads straight-line code and branches, not loops");
            z3::expr reached = block == &f_.getEntryBlock() ? c_.bool_val(true) : c_.bool_val(false);
            for (const llvm::BasicBlock* from : llvm::predecessors(block)) reached = reached || edge(from, block);
            reached_.emplace(block, reached.simplify());
            memory_ = memory_on_entry(block);
            for (const llvm::Instruction& i : *block) {
                if (memory_access(i)) continue;
                if (const auto* ret = llvm::dyn_cast<llvm::ReturnInst>(&i)) {
                    const term v = value(ret->getReturnValue());
                    result = result ? z3::ite(reached_.at(block), v.bits, *result) : v.bits;
                    result_poison = result_poison ? z3::ite(reached_.at(block), v.poison, *result_poison) : v.poison;
                    continue;
                }
                if (const auto* br = llvm::dyn_cast<llvm::BranchInst>(&i)) {
                    if (br->isConditional()) undefined = undefined || (reached_.at(block) && value(br->getCondition()).poison);
                    continue;
                }
                if (const auto* sw = llvm::dyn_cast<llvm::SwitchInst>(&i)) {
                    undefined = undefined || (reached_.at(block) && value(sw->getCondition()).poison);
                    continue;
                }
                if (llvm::isa<llvm::UnreachableInst>(&i)) {
                    undefined = undefined || reached_.at(block);
                    hazards_.push_back("unreachable code reached (" + source_line(i) + ")");
                    continue;
                }
                if (const auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
                    if (llvm::isa<llvm::DbgInfoIntrinsic>(call)) continue;
                    if (const auto* in = llvm::dyn_cast<llvm::IntrinsicInst>(call); in && in->getIntrinsicID() == llvm::Intrinsic::assume) {
                        undefined = undefined || (reached_.at(block) && value(in->getArgOperand(0)).bits == c_.bv_val(0, 1));
                        continue;
                    }
                }
                values_.emplace(&i, instruction(i));
            }
            memory_out_.emplace(block, memory_);
        }
        if (!result) throw refusal("function " + f_.getName().str() + " never returns");
        return {*result, !(undefined || *result_poison), hazards_};
    }

private:
    z3::context& c_;
    const llvm::Function& f_;
    unsigned depth_;  // calls read in place around this function
    std::map<const llvm::Value*, term> values_;
    std::map<const llvm::BasicBlock*, z3::expr> reached_;
    std::vector<std::string> hazards_;
    // Local variables whose address clang kept (an out-parameter such as frexp's): each one's
    // value where control is, and where each block leaves it. Nothing else of memory is read.
    using memory = std::map<const llvm::AllocaInst*, term>;
    memory memory_;
    std::map<const llvm::BasicBlock*, memory> memory_out_;
    std::map<const llvm::Value*, const llvm::AllocaInst*> aliases_;  // a local's address cast to another pointer type

    // A block's locals as its predecessors leave them, chosen by the edge control came along (a
    // local one predecessor never wrote holds any value there).
    memory memory_on_entry(const llvm::BasicBlock* block) {
        memory in;
        std::set<const llvm::AllocaInst*> slots;
        for (const llvm::BasicBlock* from : llvm::predecessors(block))
            for (const auto& [slot, v] : memory_out_.at(from)) slots.insert(slot);
        for (const llvm::AllocaInst* slot : slots) {
            std::optional<term> merged;
            for (const llvm::BasicBlock* from : llvm::predecessors(block)) {
                const memory& out = memory_out_.at(from);
                const auto found = out.find(slot);
                const term v = found != out.end() ? found->second : term{fresh("uninitialized", width_of(slot->getAllocatedType())), c_.bool_val(false)};
                merged = merged ? term{z3::ite(edge(from, block), v.bits, merged->bits), z3::ite(edge(from, block), v.poison, merged->poison)} : v;
            }
            in.emplace(slot, *merged);
        }
        return in;
    }

    // The local variable a pointer names, or a refusal: memory is read only as scalar locals.
    const llvm::AllocaInst& local(const llvm::Value* pointer, const llvm::Instruction& at) {
        if (const auto alias = aliases_.find(pointer); alias != aliases_.end()) pointer = alias->second;
        const auto* slot = llvm::dyn_cast<llvm::AllocaInst>(pointer);
        if (!slot || !memory_.count(slot))
            throw refusal("memory other than a local variable of a number type (an array, a global, a pointer passed in): " + shown(at) +
                          " at " + source_line(at));
        return *slot;
    }

    // alloca, load, store, the lifetime markers and frexp's out-parameter, on scalar locals: true
    // where `i` was one of them (and is done).
    bool memory_access(const llvm::Instruction& i) {
        if (const auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i)) {
            const unsigned w = width_of(a->getAllocatedType());
            if (w == 0 || a->isArrayAllocation() || !a->isStaticAlloca())
                throw refusal("a local variable the prover does not read (an array, a struct, a variable-length one): " + shown(i) + " at " +
                              source_line(i));
            memory_.insert_or_assign(a, term{fresh("uninitialized", w), c_.bool_val(false)});  // C++'s indeterminate value: any
            return true;
        }
        if (const auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
            const llvm::AllocaInst& slot = local(st->getPointerOperand(), i);
            if (st->isVolatile() || width_of(st->getValueOperand()->getType()) != width_of(slot.getAllocatedType()))
                throw refusal("a volatile store, or one of another width than its local: " + shown(i) + " at " + source_line(i));
            memory_.insert_or_assign(&slot, value(st->getValueOperand()));
            return true;
        }
        if (const auto* ld = llvm::dyn_cast<llvm::LoadInst>(&i)) {
            const llvm::AllocaInst& slot = local(ld->getPointerOperand(), i);
            if (ld->isVolatile() || width_of(ld->getType()) != width_of(slot.getAllocatedType()))
                throw refusal("a volatile load, or one of another width than its local: " + shown(i) + " at " + source_line(i));
            values_.emplace(&i, memory_.at(&slot));
            return true;
        }
        if (llvm::isa<llvm::GetElementPtrInst>(&i))  // an element of an array or a struct, a global's or a local's
            throw refusal("memory other than a local variable of a number type (an array, a global, a pointer passed in): " + shown(i) +
                          " at " + source_line(i));
        if (const auto* cast = llvm::dyn_cast<llvm::BitCastInst>(&i); cast && cast->getType()->isPointerTy()) {
            aliases_.emplace(&i, &local(cast->getOperand(0), i));  // the same local, read through another type: the same bits
            return true;
        }
        if (const auto* in = llvm::dyn_cast<llvm::IntrinsicInst>(&i))
            return in->getIntrinsicID() == llvm::Intrinsic::lifetime_start || in->getIntrinsicID() == llvm::Intrinsic::lifetime_end;
        if (const auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
            const llvm::Function* callee = call->getCalledFunction();
            if (!callee || !callee->isDeclaration() || (callee->getName() != "frexpf" && callee->getName() != "frexp")) return false;
            // frexp(x, &e): x = f 2^e with |f| in [0.5, 1); a zero is itself with e = 0; an
            // infinity or a NaN is itself, with e unspecified (C 7.12.6.4): any value.
            const llvm::AllocaInst& slot = local(call->getArgOperand(1), i);
            const unsigned ew = width_of(slot.getAllocatedType());
            const z3::expr x = as_float(call->getArgOperand(0)), xb = value(call->getArgOperand(0)).bits;
            const z3::expr e = exponent_of(xb, x, ew) + c_.bv_val(1, ew);
            const z3::expr f = scaled_by(x, -e);
            const z3::expr special = x.mk_is_inf() || x.mk_is_nan();
            values_.emplace(&i, term{z3::ite(x.mk_is_zero() || special, xb, float_bits(f, call->getType())), value(call->getArgOperand(0)).poison});
            memory_.insert_or_assign(&slot, term{z3::ite(x.mk_is_zero(), c_.bv_val(0, ew), z3::ite(special, fresh("frexp_exponent", ew), e)), c_.bool_val(false)});
            return true;
        }
        return false;
    }

    // A value the IR leaves free (undef, a frozen poison, a NaN's bits): a variable of its own,
    // named uniquely across every call of every function in the process, so that two calls never
    // share one by accident (which would prove less than the code allows).
    z3::expr fresh(const char* what, unsigned w) {
        static std::atomic<unsigned long> count{0};
        return c_.bv_const((std::string(what) + std::to_string(count++)).c_str(), w);
    }

    z3::expr bv(std::uint64_t v, unsigned w) { return c_.bv_val(v, w); }
    z3::expr truth(const z3::expr& b) { return z3::ite(b, bv(1, 1), bv(0, 1)); }
    term ok(const z3::expr& bits) { return {bits, c_.bool_val(false)}; }
    z3::expr any_poison(std::initializer_list<term> ts) {
        z3::expr p = c_.bool_val(false);
        for (const term& t : ts) p = p || t.poison;
        return p;
    }

    // The condition under which control goes from `from` to `to`.
    z3::expr edge(const llvm::BasicBlock* from, const llvm::BasicBlock* to) {
        const z3::expr at = reached_.at(from);
        const llvm::Instruction* t = from->getTerminator();
        if (const auto* br = llvm::dyn_cast<llvm::BranchInst>(t)) {
            if (!br->isConditional()) return at;
            const z3::expr c = value(br->getCondition()).bits == bv(1, 1);
            z3::expr e = c_.bool_val(false);
            if (br->getSuccessor(0) == to) e = e || c;
            if (br->getSuccessor(1) == to) e = e || !c;
            return at && e;
        }
        if (const auto* sw = llvm::dyn_cast<llvm::SwitchInst>(t)) {
            const z3::expr x = value(sw->getCondition()).bits;
            z3::expr e = c_.bool_val(false), some_case = c_.bool_val(false);
            for (const auto& cs : sw->cases()) {
                const z3::expr hit = x == constant(cs.getCaseValue()).bits;
                some_case = some_case || hit;
                if (cs.getCaseSuccessor() == to) e = e || hit;
            }
            if (sw->getDefaultDest() == to) e = e || !some_case;
            return at && e;
        }
        throw refusal("control flow the prover does not read: " + shown(*t) + " at " + source_line(*t));
    }

    term constant(const llvm::Constant* k) {
        if (const auto* i = llvm::dyn_cast<llvm::ConstantInt>(k)) {
            const llvm::APInt& v = i->getValue();
            return ok(c_.bv_val(llvm::toString(v, 10, false).c_str(), v.getBitWidth()));
        }
        if (const auto* f = llvm::dyn_cast<llvm::ConstantFP>(k)) {
            const llvm::APInt v = f->getValueAPF().bitcastToAPInt();
            return ok(c_.bv_val(llvm::toString(v, 10, false).c_str(), v.getBitWidth()));
        }
        if (llvm::isa<llvm::UndefValue>(k)) {  // undef (and poison): any value, and poison where it is poison
            const unsigned w = width_of(k->getType());
            if (w == 0) throw refusal("an undefined value of a type the prover does not read");
            return {fresh("undef", w), c_.bool_val(llvm::isa<llvm::PoisonValue>(k))};
        }
        std::string s;
        llvm::raw_string_ostream out(s);
        k->print(out);
        throw refusal("a constant the prover does not read: " + out.str());
    }

    term value(const llvm::Value* v) {
        if (const auto found = values_.find(v); found != values_.end()) return found->second;
        if (const auto* a = llvm::dyn_cast<llvm::AllocaInst>(v))
            throw refusal("the address of a local variable used other than by a load, a store or frexp: " + shown(*a) + " at " + source_line(*a));
        if (const auto* k = llvm::dyn_cast<llvm::Constant>(v)) return constant(k);
        throw refusal("a value used before it is defined (the prover reads blocks in order)");
    }

    z3::sort fp_sort(const llvm::Type* t) {
        if (t->isHalfTy()) return c_.fpa_sort(5, 11);
        if (t->isBFloatTy()) return c_.fpa_sort(8, 8);
        if (t->isFloatTy()) return c_.fpa_sort(8, 24);
        return c_.fpa_sort(11, 53);
    }
    z3::expr as_float(const llvm::Value* v) { return value(v).bits.mk_from_ieee_bv(fp_sort(v->getType())); }

    // LLVM's ordinary float instructions assume the default environment: to nearest, ties to even.
    z3::expr mode(Z3_ast (*m)(Z3_context)) { return z3::to_expr(c_, m(c_)); }
    z3::expr rne() { return mode(Z3_mk_fpa_rne); }
    z3::expr fp(Z3_ast a) { return z3::to_expr(c_, a); }

    // A float result as its bits: IEEE 754's exactly where it is a number. Where it is a NaN, LLVM
    // fixes only that it is one (LangRef, "Floating-point semantics": the sign and payload are the
    // compiler's and the target's to choose), so it is any NaN, chosen freely: a proof holds for
    // every choice, and a refutation is confirmed by the native run as always.
    z3::expr float_bits(const z3::expr& r, const llvm::Type* t) {
        const unsigned w = width_of(t), significand = r.get_sort().fpa_sbits();
        const z3::expr pick = fresh("nan", w), fraction = pick.extract(significand - 2, 0);
        const z3::expr any_nan = z3::concat(z3::concat(pick.extract(w - 1, w - 1), c_.bv_val(-1, w - significand)),
                                            z3::ite(fraction == c_.bv_val(0, significand - 1), c_.bv_val(1, significand - 1), fraction));
        return z3::ite(r.mk_is_nan(), any_nan, r.mk_to_ieee_bv());
    }

    // Float arithmetic as the function's attributes let it run: subnormals flushed (-ffast-math's
    // crtfastmath, -fdenormal-fp-math) is an environment the theory does not state: refused.
    void require_ieee_subnormals(const llvm::Instruction& i) {
        for (const char* name : {"denormal-fp-math", "denormal-fp-math-f32"}) {
            const llvm::Attribute a = f_.getFnAttribute(name);
            if (a.isValid() && !a.getValueAsString().empty() && a.getValueAsString() != "ieee,ieee" && a.getValueAsString() != "ieee")
                throw refusal("float arithmetic compiled with subnormals flushed (" + std::string(name) + "=" + a.getValueAsString().str() +
                              "): " + shown(i) + " at " + source_line(i));
        }
    }

    // Fast-math flags: nnan and ninf make a NaN or infinite operand or result poison (LangRef).
    // The others let the code generator change the result's bits after this IR (reassociate,
    // contract into an fma, ignore a zero's sign, a reciprocal, an approximation): refused.
    z3::expr fast_math_poison(const llvm::Instruction& i, std::initializer_list<z3::expr> floats) {
        z3::expr p = c_.bool_val(false);
        const auto* o = llvm::dyn_cast<llvm::FPMathOperator>(&i);
        if (!o) return p;
        const llvm::FastMathFlags m = o->getFastMathFlags();
        if (m.allowReassoc() || m.noSignedZeros() || m.allowReciprocal() || m.allowContract() || m.approxFunc())
            throw refusal("fast-math flags that let the compiler change the result's bits (reassoc, nsz, arcp, contract or afn): " +
                          shown(i) + " at " + source_line(i));
        for (const z3::expr& x : floats) {
            if (m.noNaNs()) p = p || x.mk_is_nan();
            if (m.noInfs()) p = p || x.mk_is_inf();
        }
        return p;
    }

    term arithmetic(const llvm::Instruction& i) {
        require_ieee_subnormals(i);
        const z3::expr x = as_float(i.getOperand(0)), y = as_float(i.getOperand(1));
        const unsigned code = i.getOpcode();
        const auto make = code == llvm::Instruction::FAdd ? Z3_mk_fpa_add : code == llvm::Instruction::FSub ? Z3_mk_fpa_sub
                        : code == llvm::Instruction::FMul ? Z3_mk_fpa_mul : Z3_mk_fpa_div;
        const z3::expr r = fp(make(c_, rne(), x, y));
        return {float_bits(r, i.getType()), value(i.getOperand(0)).poison || value(i.getOperand(1)).poison || fast_math_poison(i, {x, y, r})};
    }

    // fptoui / fptosi: toward zero; poison where the integer part does not fit (NaN and the
    // infinities included), as LangRef says.
    term to_integer(const llvm::Instruction& i, unsigned w) {
        const bool is_signed = i.getOpcode() == llvm::Instruction::FPToSI;
        const z3::expr x = as_float(i.getOperand(0)), rtz = mode(Z3_mk_fpa_rtz);
        const z3::expr r = fp(is_signed ? Z3_mk_fpa_to_sbv(c_, rtz, x, w) : Z3_mk_fpa_to_ubv(c_, rtz, x, w));
        const z3::expr t = fp(Z3_mk_fpa_round_to_integral(c_, rtz, x));
        auto bound = [&](double v) { return fp(Z3_mk_fpa_to_fp_float(c_, rne(), c_.fpa_val(v), x.get_sort())); };
        const double top = std::ldexp(1.0, int(is_signed ? w - 1 : w)), bottom = is_signed ? -top : 0.0;
        const z3::expr outside = x.mk_is_nan() || x.mk_is_inf() || fp(Z3_mk_fpa_lt(c_, t, bound(bottom))) || fp(Z3_mk_fpa_geq(c_, t, bound(top)));
        return {r, value(i.getOperand(0)).poison || outside};
    }

    term instruction(const llvm::Instruction& i) {
        const unsigned w = width_of(i.getType());
        if (w == 0 && !i.getType()->isVoidTy())
            throw refusal("a value of a type the prover does not read (vector, pointer or aggregate): " + shown(i) + " at " + source_line(i));
        auto refuse = [&](const std::string& why) -> term { throw refusal(why + ": " + shown(i) + " at " + source_line(i)); };
        auto op = [&](unsigned n) { return value(i.getOperand(n)); };
        // poison(x) for an operand list, plus this instruction's own condition
        auto with = [&](const z3::expr& bits, std::initializer_list<term> from, const z3::expr& own) {
            return term{bits, any_poison(from) || own};
        };
        const z3::expr no = c_.bool_val(false);
        switch (i.getOpcode()) {
        case llvm::Instruction::Add:
        case llvm::Instruction::Sub:
        case llvm::Instruction::Mul: {
            const term a = op(0), b = op(1);
            const auto* o = llvm::cast<llvm::OverflowingBinaryOperator>(&i);
            const unsigned code = i.getOpcode();
            const z3::expr r = code == llvm::Instruction::Add ? a.bits + b.bits : code == llvm::Instruction::Sub ? a.bits - b.bits : a.bits * b.bits;
            z3::expr own = no;
            // nuw / nsw: the result is poison where the operation wraps
            auto wraps = [&](bool is_signed) {  // the operation in more bits differs from the result widened
                const unsigned more = code == llvm::Instruction::Mul ? w : 1;
                auto widen = [&](const z3::expr& x) { return is_signed ? z3::sext(x, more) : z3::zext(x, more); };
                const z3::expr wa = widen(a.bits), wb = widen(b.bits);
                const z3::expr full = code == llvm::Instruction::Add ? wa + wb : code == llvm::Instruction::Sub ? wa - wb : wa * wb;
                return full != widen(r);
            };
            if (o->hasNoUnsignedWrap()) own = own || wraps(false);
            if (o->hasNoSignedWrap()) own = own || wraps(true);
            return with(r, {a, b}, own);
        }
        case llvm::Instruction::And: return with(op(0).bits & op(1).bits, {op(0), op(1)}, no);
        case llvm::Instruction::Or: return with(op(0).bits | op(1).bits, {op(0), op(1)}, no);
        case llvm::Instruction::Xor: return with(op(0).bits ^ op(1).bits, {op(0), op(1)}, no);
        case llvm::Instruction::Shl:
        case llvm::Instruction::LShr:
        case llvm::Instruction::AShr: {
            const term a = op(0), b = op(1);
            const unsigned code = i.getOpcode();
            const z3::expr r = code == llvm::Instruction::Shl ? z3::shl(a.bits, b.bits) : code == llvm::Instruction::LShr ? z3::lshr(a.bits, b.bits)
                                                                                                                      : z3::ashr(a.bits, b.bits);
            z3::expr own = z3::uge(b.bits, bv(w, w));  // a shift by the width or more is poison
            if (const auto* o = llvm::dyn_cast<llvm::OverflowingBinaryOperator>(&i)) {
                if (o->hasNoUnsignedWrap()) own = own || z3::lshr(r, b.bits) != a.bits;
                if (o->hasNoSignedWrap()) own = own || z3::ashr(r, b.bits) != a.bits;
            }
            if (const auto* e = llvm::dyn_cast<llvm::PossiblyExactOperator>(&i); e && e->isExact())
                own = own || z3::shl(r, b.bits) != a.bits;
            return with(r, {a, b}, own);
        }
        case llvm::Instruction::UDiv:
        case llvm::Instruction::URem:
        case llvm::Instruction::SDiv:
        case llvm::Instruction::SRem: {
            const term a = op(0), b = op(1);
            const unsigned code = i.getOpcode();
            const z3::expr r = code == llvm::Instruction::UDiv ? z3::udiv(a.bits, b.bits) : code == llvm::Instruction::URem ? z3::urem(a.bits, b.bits)
                               : code == llvm::Instruction::SDiv ? a.bits / b.bits : z3::srem(a.bits, b.bits);
            z3::expr own = b.bits == bv(0, w);  // undefined behaviour, counted as poison of the result
            if (code == llvm::Instruction::SDiv || code == llvm::Instruction::SRem)
                own = own || (a.bits == z3::shl(bv(1, w), bv(w - 1, w)) && b.bits == c_.bv_val(-1, w));
            hazards_.push_back("division by zero or overflow (" + source_line(i) + ")");
            return with(r, {a, b}, own);
        }
        case llvm::Instruction::ICmp: {
            const auto* cmp = llvm::cast<llvm::ICmpInst>(&i);
            const term a = op(0), b = op(1);
            z3::expr r = no;
            switch (cmp->getPredicate()) {
            case llvm::CmpInst::ICMP_EQ: r = a.bits == b.bits; break;
            case llvm::CmpInst::ICMP_NE: r = a.bits != b.bits; break;
            case llvm::CmpInst::ICMP_UGT: r = z3::ugt(a.bits, b.bits); break;
            case llvm::CmpInst::ICMP_UGE: r = z3::uge(a.bits, b.bits); break;
            case llvm::CmpInst::ICMP_ULT: r = z3::ult(a.bits, b.bits); break;
            case llvm::CmpInst::ICMP_ULE: r = z3::ule(a.bits, b.bits); break;
            case llvm::CmpInst::ICMP_SGT: r = a.bits > b.bits; break;
            case llvm::CmpInst::ICMP_SGE: r = a.bits >= b.bits; break;
            case llvm::CmpInst::ICMP_SLT: r = a.bits < b.bits; break;
            case llvm::CmpInst::ICMP_SLE: r = a.bits <= b.bits; break;
            default: return refuse("an integer comparison the prover does not read");
            }
            return with(truth(r), {a, b}, no);
        }
        case llvm::Instruction::FCmp: {
            const auto* cmp = llvm::cast<llvm::FCmpInst>(&i);
            const z3::expr x = as_float(i.getOperand(0)), y = as_float(i.getOperand(1));
            const z3::expr unordered = x.mk_is_nan() || y.mk_is_nan();
            const z3::expr eq = z3::to_expr(c_, Z3_mk_fpa_eq(c_, x, y)), lt = z3::to_expr(c_, Z3_mk_fpa_lt(c_, x, y)),
                           gt = z3::to_expr(c_, Z3_mk_fpa_gt(c_, x, y));
            z3::expr r = no;
            switch (cmp->getPredicate()) {
            case llvm::CmpInst::FCMP_FALSE: r = no; break;
            case llvm::CmpInst::FCMP_TRUE: r = c_.bool_val(true); break;
            case llvm::CmpInst::FCMP_OEQ: r = eq; break;
            case llvm::CmpInst::FCMP_OGT: r = gt; break;
            case llvm::CmpInst::FCMP_OGE: r = gt || eq; break;
            case llvm::CmpInst::FCMP_OLT: r = lt; break;
            case llvm::CmpInst::FCMP_OLE: r = lt || eq; break;
            case llvm::CmpInst::FCMP_ONE: r = lt || gt; break;
            case llvm::CmpInst::FCMP_ORD: r = !unordered; break;
            case llvm::CmpInst::FCMP_UNO: r = unordered; break;
            case llvm::CmpInst::FCMP_UEQ: r = unordered || eq; break;
            case llvm::CmpInst::FCMP_UGT: r = unordered || gt; break;
            case llvm::CmpInst::FCMP_UGE: r = unordered || gt || eq; break;
            case llvm::CmpInst::FCMP_ULT: r = unordered || lt; break;
            case llvm::CmpInst::FCMP_ULE: r = unordered || lt || eq; break;
            case llvm::CmpInst::FCMP_UNE: r = unordered || lt || gt; break;
            default: return refuse("a float comparison the prover does not read");
            }
            // nnan / ninf flags (fast math) make NaN or infinite operands poison
            z3::expr own = no;
            if (cmp->hasNoNaNs()) own = own || unordered;
            if (cmp->hasNoInfs()) own = own || x.mk_is_inf() || y.mk_is_inf();
            return with(truth(r), {op(0), op(1)}, own);
        }
        case llvm::Instruction::Select: {
            const term cnd = op(0), t = op(1), f = op(2);
            if (width_of(i.getOperand(0)->getType()) != 1) return refuse("a select on a vector");
            const z3::expr on = cnd.bits == bv(1, 1);
            return {z3::ite(on, t.bits, f.bits), cnd.poison || z3::ite(on, t.poison, f.poison)};
        }
        case llvm::Instruction::ZExt: return with(z3::zext(op(0).bits, w - width_of(i.getOperand(0)->getType())), {op(0)}, no);
        case llvm::Instruction::SExt: return with(z3::sext(op(0).bits, w - width_of(i.getOperand(0)->getType())), {op(0)}, no);
        case llvm::Instruction::Trunc: return with(op(0).bits.extract(w - 1, 0), {op(0)}, no);
        case llvm::Instruction::BitCast: {
            if (width_of(i.getOperand(0)->getType()) != w) return refuse("a bitcast between types the prover does not read");
            return op(0);  // a float is its bits: nothing changes
        }
        case llvm::Instruction::FNeg: return with(op(0).bits ^ z3::shl(bv(1, w), bv(w - 1, w)), {op(0)}, no);
        case llvm::Instruction::FAdd:
        case llvm::Instruction::FSub:
        case llvm::Instruction::FMul:
        case llvm::Instruction::FDiv: return arithmetic(i);
        case llvm::Instruction::FPExt:
        case llvm::Instruction::FPTrunc: {  // exact or rounded to nearest, ties to even; a NaN stays some NaN
            require_ieee_subnormals(i);
            const z3::expr x = as_float(i.getOperand(0)), r = fp(Z3_mk_fpa_to_fp_float(c_, rne(), x, fp_sort(i.getType())));
            return with(float_bits(r, i.getType()), {op(0)}, fast_math_poison(i, {x, r}));
        }
        case llvm::Instruction::SIToFP:
        case llvm::Instruction::UIToFP: {
            const z3::sort to = fp_sort(i.getType());
            const z3::expr r = fp(i.getOpcode() == llvm::Instruction::SIToFP ? Z3_mk_fpa_to_fp_signed(c_, rne(), op(0).bits, to)
                                                                              : Z3_mk_fpa_to_fp_unsigned(c_, rne(), op(0).bits, to));
            return with(float_bits(r, i.getType()), {op(0)}, no);
        }
        case llvm::Instruction::FPToSI:
        case llvm::Instruction::FPToUI: return to_integer(i, w);
        case llvm::Instruction::Freeze: {
            const term a = op(0);
            return ok(z3::ite(a.poison, fresh("frozen", w), a.bits));
        }
        case llvm::Instruction::PHI: {
            const auto* phi = llvm::cast<llvm::PHINode>(&i);
            std::optional<term> r;
            for (unsigned n = 0; n < phi->getNumIncomingValues(); ++n) {
                const term in = value(phi->getIncomingValue(n));
                const z3::expr taken = edge(phi->getIncomingBlock(n), phi->getParent());
                r = r ? term{z3::ite(taken, in.bits, r->bits), z3::ite(taken, in.poison, r->poison)} : in;
            }
            if (!r) return refuse("a phi with no incoming value");
            return *r;
        }
        case llvm::Instruction::Call: return intrinsic(llvm::cast<llvm::CallInst>(i), w);
        default: return refuse("an instruction the prover does not read (" + std::string(i.getOpcodeName()) + ")");
        }
    }

    // x 2^n rounded once to x's format (ldexp's): in 15 exponent bits every binary64 is a normal
    // number (or 0, infinity, NaN), and times 2^n, n clamped to +-2200, is exact: a sum on the
    // exponent field (past the clamp the result is 0 or infinity whatever n is).
    z3::expr scaled_by(const z3::expr& x, const z3::expr& n) {
        const unsigned significand = x.get_sort().fpa_sbits();
        const z3::sort wide = c_.fpa_sort(15, significand);
        const z3::expr xw = fp(Z3_mk_fpa_to_fp_float(c_, rne(), x, wide)), bits = xw.mk_to_ieee_bv();
        const unsigned nw = n.get_sort().bv_size(), bw = bits.get_sort().bv_size();
        const z3::expr limit = c_.bv_val(2200, nw), clamped = z3::ite(n > limit, limit, z3::ite(n < -limit, -limit, n));
        const z3::expr shifted = bits + z3::shl(z3::sext(clamped, bw - nw), c_.bv_val(significand - 1, bw));
        const z3::expr exact = z3::ite(xw.mk_is_zero() || xw.mk_is_inf() || xw.mk_is_nan(), bits, shifted).mk_from_ieee_bv(wide);
        return fp(Z3_mk_fpa_to_fp_float(c_, rne(), exact, x.get_sort()));
    }

    // floor(log2 |x|) of a finite non-zero x with bits b, as an rw-bit integer (ilogb's, where it
    // is defined): a normal's exponent field less the bias; a subnormal's top fraction bit's place.
    z3::expr exponent_of(const z3::expr& b, const z3::expr& x, unsigned rw) {
        const unsigned w = b.get_sort().bv_size(), significand = x.get_sort().fpa_sbits();
        const unsigned e = w - significand;
        const int bias = (1 << (e - 1)) - 1;
        const z3::expr field = z3::zext(b.extract(w - 2, significand - 1), rw - e);
        const z3::expr normal = field - c_.bv_val(bias, rw);
        z3::expr sub = c_.bv_val(0, rw);
        for (unsigned bit = 0; bit + 1 < significand; ++bit)
            sub = z3::ite(b.extract(bit, bit) == c_.bv_val(1, 1), c_.bv_val(std::int64_t(bit) - int(significand - 1) + 1 - bias, rw), sub);
        return z3::ite(x.mk_is_subnormal(), sub, normal);
    }

    // The C library's functions whose results C and IEEE 754 define exactly, which clang leaves as
    // calls (they may set errno): ldexp and scalbn (x 2^n rounded once), ilogb (the exponent; this
    // C library's FP_ILOGB0 and FP_ILOGBNAN) and fmod (exact); frexp, which writes a local, is
    // memory_access's. Any other call is refused.
    std::optional<term> library_call(const llvm::CallInst& call, llvm::StringRef name) {
        const llvm::Type* t = call.getType();
        auto arg = [&](unsigned n) { return value(call.getArgOperand(n)); };
        if (name == "ldexpf" || name == "ldexp" || name == "scalbnf" || name == "scalbn") {
            require_ieee_subnormals(call);
            return term{float_bits(scaled_by(as_float(call.getArgOperand(0)), arg(1).bits), t), arg(0).poison || arg(1).poison};
        }
        if (name == "ilogbf" || name == "ilogb") {
            const z3::expr x = as_float(call.getArgOperand(0));
            const unsigned rw = width_of(t);
            const z3::expr r = exponent_of(arg(0).bits, x, rw);
            return term{z3::ite(x.mk_is_zero(), c_.bv_val(FP_ILOGB0, rw), z3::ite(x.mk_is_nan(), c_.bv_val(FP_ILOGBNAN, rw), z3::ite(x.mk_is_inf(), c_.bv_val(INT_MAX, rw), r))),
                        arg(0).poison};
        }
        if (name == "fmodf" || name == "fmod") {
            require_ieee_subnormals(call);
            // IEEE's remainder rounds the quotient to nearest; fmod truncates it: where the two
            // differ, the remainder's sign is not x's, and one |y| more (exactly) makes it fmod's.
            const z3::expr x = as_float(call.getArgOperand(0)), y = as_float(call.getArgOperand(1));
            if (const auto* k = llvm::dyn_cast<llvm::ConstantFP>(call.getArgOperand(1)); k && k->getValueAPF().isFinite() && !k->isZero()) {
                // By a power of two (fmod(r, 2.0f): a parity test): x - trunc(x / y) y, each step
                // exact (x / y can only round where its integer part is 0), with the zero's sign
                // x's. Z3's remainder is far costlier to decide.
                const int shift = std::ilogb(k->getValueAPF().convertToDouble());
                const double magnitude = std::ldexp(1.0, shift);
                const bool exact_inverse = x.get_sort().fpa_sbits() >= 24 && shift > -120 && shift < 120;
                if (exact_inverse && std::fabs(k->getValueAPF().convertToDouble()) == magnitude) {
                    const z3::expr yy = fp(Z3_mk_fpa_to_fp_float(c_, rne(), c_.fpa_val(magnitude), x.get_sort()));
                    const z3::expr inverse = fp(Z3_mk_fpa_to_fp_float(c_, rne(), c_.fpa_val(std::ldexp(1.0, -shift)), x.get_sort()));
                    const z3::expr whole = fp(Z3_mk_fpa_round_to_integral(c_, mode(Z3_mk_fpa_rtz), fp(Z3_mk_fpa_mul(c_, rne(), x, inverse))));
                    const z3::expr d = fp(Z3_mk_fpa_sub(c_, rne(), x, fp(Z3_mk_fpa_mul(c_, rne(), whole, yy))));
                    const z3::expr f = z3::ite(d.mk_is_zero(), z3::ite(fp(Z3_mk_fpa_is_negative(c_, x)), fp(Z3_mk_fpa_neg(c_, fp(Z3_mk_fpa_abs(c_, d)))), fp(Z3_mk_fpa_abs(c_, d))), d);
                    return term{float_bits(f, t), arg(0).poison || arg(1).poison};
                }
            }
            const z3::expr r = fp(Z3_mk_fpa_rem(c_, x, y)), magnitude = fp(Z3_mk_fpa_abs(c_, y));
            const z3::expr flip = !r.mk_is_zero() && !r.mk_is_nan() && fp(Z3_mk_fpa_is_negative(c_, r)) != fp(Z3_mk_fpa_is_negative(c_, x));
            const z3::expr toward = z3::ite(fp(Z3_mk_fpa_is_negative(c_, x)), fp(Z3_mk_fpa_neg(c_, magnitude)), magnitude);
            const z3::expr f = z3::ite(flip, fp(Z3_mk_fpa_add(c_, rne(), r, toward)), r);
            return term{float_bits(f, t), arg(0).poison || arg(1).poison};
        }
        return std::nullopt;
    }

    term intrinsic(const llvm::CallInst& call, unsigned w) {
        const auto* in = llvm::dyn_cast<llvm::IntrinsicInst>(&call);
        if (!in) {
            const llvm::Function* callee = call.getCalledFunction();
            if (callee && callee->isDeclaration())
                if (const std::optional<term> t = library_call(call, callee->getName())) return *t;
            // A function of the module that clang chose not to inline: read in place, as if it had
            // been (a poison argument makes the result poison: a little stricter than LLVM, never
            // looser); recursion is refused.
            if (callee && !callee->isDeclaration() && !callee->isVarArg()) {
                if (depth_ >= 16) throw refusal("a call chain 16 deep (recursion?) at " + source_line(call) + ": the prover reads acyclic code");
                std::vector<z3::expr> args;
                z3::expr poison = c_.bool_val(false);
                for (unsigned n = 0; n < call.arg_size(); ++n) {
                    args.push_back(value(call.getArgOperand(n)).bits);
                    poison = poison || value(call.getArgOperand(n)).poison;
                }
                translator inner(c_, *callee, depth_ + 1);
                const function_term r = inner.run(args);
                hazards_.insert(hazards_.end(), r.hazards.begin(), r.hazards.end());
                return {r.value, poison || !r.defined};
            }
            throw refusal("a call to " + (callee ? llvm::demangle(callee->getName().str()) : std::string("a function pointer")) +
                          ", whose code is not in the compiled file, at " + source_line(call) + ": the prover reads the code it compiled");
        }
        auto op = [&](unsigned n) { return value(call.getArgOperand(n)); };
        const z3::expr no = c_.bool_val(false);
        const z3::expr sign = z3::shl(bv(1, w), bv(w - 1, w));
        switch (in->getIntrinsicID()) {
        case llvm::Intrinsic::fabs: return {op(0).bits & ~sign, op(0).poison};
        case llvm::Intrinsic::floor:
        case llvm::Intrinsic::ceil:
        case llvm::Intrinsic::trunc:
        case llvm::Intrinsic::rint:
        case llvm::Intrinsic::nearbyint:
        case llvm::Intrinsic::round:
        case llvm::Intrinsic::roundeven:
        case llvm::Intrinsic::sqrt: {
            require_ieee_subnormals(call);
            const auto id = in->getIntrinsicID();
            // rint and nearbyint round in the current mode, the default one here.
            const z3::expr m = id == llvm::Intrinsic::floor ? mode(Z3_mk_fpa_rtn) : id == llvm::Intrinsic::ceil ? mode(Z3_mk_fpa_rtp)
                             : id == llvm::Intrinsic::trunc ? mode(Z3_mk_fpa_rtz) : id == llvm::Intrinsic::round ? mode(Z3_mk_fpa_rna) : rne();
            const z3::expr x = as_float(call.getArgOperand(0));
            const z3::expr r = id == llvm::Intrinsic::sqrt ? fp(Z3_mk_fpa_sqrt(c_, m, x)) : fp(Z3_mk_fpa_round_to_integral(c_, m, x));
            return {float_bits(r, call.getType()), op(0).poison || fast_math_poison(call, {x, r})};
        }
        case llvm::Intrinsic::fma: {
            require_ieee_subnormals(call);
            const z3::expr x = as_float(call.getArgOperand(0)), y = as_float(call.getArgOperand(1)), z = as_float(call.getArgOperand(2));
            const z3::expr r = fp(Z3_mk_fpa_fma(c_, rne(), x, y, z));
            return {float_bits(r, call.getType()), op(0).poison || op(1).poison || op(2).poison || fast_math_poison(call, {x, y, z, r})};
        }
        case llvm::Intrinsic::copysign: return {(op(0).bits & ~sign) | (op(1).bits & sign), op(0).poison || op(1).poison};
        case llvm::Intrinsic::bswap: {
            z3::expr r = op(0).bits.extract(7, 0);
            for (unsigned b = 1; b < w / 8; ++b) r = z3::concat(r, op(0).bits.extract(8 * b + 7, 8 * b));
            return {r, op(0).poison};
        }
        case llvm::Intrinsic::ctlz:
        case llvm::Intrinsic::cttz: {
            const bool lead = in->getIntrinsicID() == llvm::Intrinsic::ctlz;
            const term a = op(0);
            z3::expr r = bv(w, w);
            for (unsigned n = w; n-- > 0;) {  // the first set bit from the end that counts
                const unsigned bit = lead ? w - 1 - n : n;
                r = z3::ite(a.bits.extract(bit, bit) == bv(1, 1), bv(n, w), r);
            }
            const bool zero_poison = value(call.getArgOperand(1)).bits.simplify().get_numeral_uint() != 0;
            return {r, a.poison || (zero_poison ? a.bits == bv(0, w) : no)};
        }
        case llvm::Intrinsic::ctpop: {
            z3::expr r = bv(0, w);
            for (unsigned b = 0; b < w; ++b) r = r + z3::zext(op(0).bits.extract(b, b), w - 1);
            return {r, op(0).poison};
        }
        case llvm::Intrinsic::smax: return {z3::ite(op(0).bits > op(1).bits, op(0).bits, op(1).bits), op(0).poison || op(1).poison};
        case llvm::Intrinsic::smin: return {z3::ite(op(0).bits < op(1).bits, op(0).bits, op(1).bits), op(0).poison || op(1).poison};
        case llvm::Intrinsic::umax: return {z3::ite(z3::ugt(op(0).bits, op(1).bits), op(0).bits, op(1).bits), op(0).poison || op(1).poison};
        case llvm::Intrinsic::umin: return {z3::ite(z3::ult(op(0).bits, op(1).bits), op(0).bits, op(1).bits), op(0).poison || op(1).poison};
        // Saturating sums and differences: computed one bit wider, then clamped to the range.
        case llvm::Intrinsic::uadd_sat:
        case llvm::Intrinsic::usub_sat:
        case llvm::Intrinsic::sadd_sat:
        case llvm::Intrinsic::ssub_sat: {
            const llvm::Intrinsic::ID id = in->getIntrinsicID();
            const bool is_signed = id == llvm::Intrinsic::sadd_sat || id == llvm::Intrinsic::ssub_sat;
            const bool add = id == llvm::Intrinsic::uadd_sat || id == llvm::Intrinsic::sadd_sat;
            const term a = op(0), b = op(1);
            const z3::expr wa = is_signed ? z3::sext(a.bits, 1) : z3::zext(a.bits, 1), wb = is_signed ? z3::sext(b.bits, 1) : z3::zext(b.bits, 1);
            const z3::expr r = add ? wa + wb : wa - wb;
            z3::expr out = r.extract(w - 1, 0);
            if (is_signed) {
                const z3::expr hi = z3::sext(~sign, 1), lo = z3::sext(sign, 1);
                out = z3::ite(r > hi, ~sign, z3::ite(r < lo, sign, out));
            } else {
                out = add ? z3::ite(r.extract(w, w) == bv(1, 1), bv(0, w) - bv(1, w), out) : z3::ite(z3::ult(a.bits, b.bits), bv(0, w), out);
            }
            return {out, a.poison || b.poison};
        }
        case llvm::Intrinsic::abs: {
            const term a = op(0);
            const bool min_poison = value(call.getArgOperand(1)).bits.simplify().get_numeral_uint() != 0;
            return {z3::ite(a.bits < bv(0, w), -a.bits, a.bits), a.poison || (min_poison ? a.bits == sign : no)};
        }
        case llvm::Intrinsic::fshl:
        case llvm::Intrinsic::fshr: {
            const term a = op(0), b = op(1), s = op(2);
            const z3::expr both = z3::concat(a.bits, b.bits), amount = z3::zext(z3::urem(s.bits, bv(w, w)), w);
            const z3::expr r = in->getIntrinsicID() == llvm::Intrinsic::fshl ? z3::shl(both, amount).extract(2 * w - 1, w)
                                                                               : z3::lshr(both, amount).extract(w - 1, 0);
            return {r, a.poison || b.poison || s.poison};
        }
        default:
            throw refusal("an intrinsic the prover does not read (" + in->getCalledFunction()->getName().str() + ") at " + source_line(call));
        }
    }
};

}  // namespace

function_term term_of(z3::context& ctx, const llvm::Function& fn, const std::vector<z3::expr>& args) {
    return translator(ctx, fn).run(args);
}

}  // namespace flipcheck::prove
