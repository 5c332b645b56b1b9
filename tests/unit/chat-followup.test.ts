/** Follow-up questions rewritten against their thread by fixed rules (lib/backend/assistants/followup.ts). */
import { describe, expect, it } from "vitest";
import { followUpRefs, isElliptical, rewriteFollowUp, type ThreadContext } from "@/lib/backend/assistants/followup";

const ctx: ThreadContext = {
  previousQuery: "What sentence do courts give for a robbery with a knife?",
  previousJudgment: { id: "00000000-0000-4000-8000-000000000001", label: "201306927 A2", court: "Court of Appeal (Criminal Division)" },
};
const pl: ThreadContext = {
  previousQuery: "Kradzież uli z pasieki w Kazimierzu Dolnym",
  previousJudgment: { id: "00000000-0000-4000-8000-000000000002", label: "II AKa 160/12", court: "Sąd Apelacyjny w Krakowie" },
};

describe("follow-up rewrite", () => {
  it("a question of its own is searched as written, even in another language (no carry-over)", () => {
    const r = rewriteFollowUp("Jaka kara za kradzież z włamaniem przy recydywie?", ctx);
    expect(r).toMatchObject({ query: "Jaka kara za kradzież z włamaniem przy recydywie?", rewritten: false, rules: [], judgmentId: null, court: null });
  });

  it("resolves 'it' / 'that judgment' to the previous answer's judgment and holds the search to it", () => {
    const r = rewriteFollowUp("What sentence did it impose?", ctx);
    expect(r).toMatchObject({ query: "What sentence did 201306927 A2 impose?", rewritten: true, rules: ["judgment"], judgmentId: ctx.previousJudgment!.id, court: null });
    expect(rewriteFollowUp("Was that judgment appealed further?", ctx).query).toBe("Was 201306927 A2 appealed further?");
    expect(rewriteFollowUp("Why did this case fail?", ctx).judgmentId).toBe(ctx.previousJudgment!.id);
    // The rank query is the message: the case number is the scope, not words to find in a sentence.
    expect(rewriteFollowUp("What sentence did it impose?", ctx).rankQuery).toBe("What sentence did it impose?");
  });

  it("resolves Polish references: 'ten wyrok', 'w tej sprawie', 'tego'", () => {
    expect(rewriteFollowUp("Jaką karę orzekł ten wyrok?", pl)).toMatchObject({ query: "Jaką karę orzekł II AKa 160/12?", judgmentId: pl.previousJudgment!.id, rules: ["judgment"] });
    expect(rewriteFollowUp("Kto był pokrzywdzonym w tej sprawie?", pl).query).toBe("Kto był pokrzywdzonym w II AKa 160/12?");
    expect(rewriteFollowUp("Ile lat kary dostał za tego?", pl).judgmentId).toBe(pl.previousJudgment!.id);
    expect(rewriteFollowUp("Czy apelacja w tym wyroku została uwzględniona?", pl).rules).toEqual(["judgment"]);
  });

  it("resolves 'the same court' / 'ten sam sąd' to the court's name and holds the search to that court", () => {
    expect(rewriteFollowUp("What did the same court decide about burglary?", ctx)).toMatchObject({
      query: "What did Court of Appeal (Criminal Division) decide about burglary?",
      court: "Court of Appeal (Criminal Division)",
      judgmentId: null,
      rules: ["court"],
    });
    expect(rewriteFollowUp("Jak ten sam sąd orzekał w sprawach rozboju?", pl)).toMatchObject({
      query: "Jak Sąd Apelacyjny w Krakowie orzekał w sprawach rozboju?",
      court: "Sąd Apelacyjny w Krakowie",
      rules: ["court"],
    });
    expect(followUpRefs("Co orzekł tego samego sądu skład?").court).toBe(true);
    // Without a known court there is nothing to hold the search to: the message goes as written.
    expect(rewriteFollowUp("What did the same court decide?", { ...ctx, previousJudgment: { ...ctx.previousJudgment!, court: null } }).court).toBeNull();
  });

  it("an elliptical follow-up carries the previous search's words", () => {
    expect(isElliptical("And what did the court decide?")).toBe(true);
    expect(isElliptical("A co z karą?")).toBe(true);
    expect(isElliptical("What sentence was imposed?")).toBe(true);
    expect(isElliptical("Jaka kara za kradzież z włamaniem przy recydywie?")).toBe(false);
    const r = rewriteFollowUp("And what did the court decide?", ctx);
    expect(r.rules).toEqual(["topic"]);
    expect(r.query).toBe("And what did the court decide? sentence give robbery knife");
    expect(r.rankQuery).toBe(r.query);
    expect(rewriteFollowUp("A co z karą?", pl).query).toBe("A co z karą? Kradzież uli pasieki Kazimierzu Dolnym");
  });

  it("is deterministic, and a thread's first message is never rewritten", () => {
    expect(rewriteFollowUp("And the sentence?", ctx)).toEqual(rewriteFollowUp("And the sentence?", ctx));
    expect(rewriteFollowUp("What did it decide?", { previousQuery: null, previousJudgment: null })).toMatchObject({ query: "What did it decide?", rewritten: false });
  });
});
