"""Rules of multiple choice: sets written as expressions, and findings that answer yes or no."""

from __future__ import annotations

from medvqa.reading.rules._build import ex, rule
from medvqa.reading.rules._types import Kind

__all__ = ["FINDINGS", "SETS"]

SETS = (
    rule("set.all", Kind.SET_ALL,
         ("all of the above", "all of these", "all of them", "all the options",
          "all options", "all five", "all four", "all three", "every option",
          "all (apply|are present|are correct)", "todas", "toutes", "alle", "tutte", "全部",
          "すべて"),
         "Every option is chosen.",
         template="{}.", options="MULTI", qtype="multi",
         expected=("A", "B", "C", "D", "E")),
    rule("set.none", Kind.SET_NONE,
         ("none of the above", "none of these", "none of them", "none apply",
          "none of the options", "ninguna", "aucune", "keine", "nessuna"),
         "No option is chosen: nothing to credit.",
         template="{}.", options="MULTI", qtype="multi"),
    rule("set.range", Kind.SET_RANGE,
         ("to", "through", "thru", "-", "\u2013"),
         "Multiple choice: a range of letters ('A to C', 'C-E') is every letter in it.",
         template="A {} C", options="MULTI", qtype="multi", expected=("A", "B", "C")),
    rule("set.except", Kind.SET_EXCEPT,
         ("all except", "all but", "every option but", "all options except", "everything but",
          "everything except", "all apart from", "(all|everything) other than",
          "(all|every) [of the] options (apply|are present|are correct) (except|but|apart from)",
          "all (of the above|of these|of them|the above|of the options) (except|but|apart from)",
          "todas excepto",
          "toutes sauf", "alle außer", "tutte tranne"),
         "Every option but those named after it.",
         template="{} B.", options="MULTI", qtype="multi", expected=("A", "C", "D", "E")),
)

_NATURE = ("suspicious", "malignant", "worrisome", "concerning", "abnormal", "pathologic",
           "pathological", "aggressive", "significant", "acute", "active", "increased",
           "enlarged", "thickened", "dilated", "elevated", "widened", "narrowed", "reduced",
           "decreased", "deviated", "displaced", "ulcerated", "patent")

FINDINGS = (
    rule("finding.absent-lead", Kind.FINDING_ABSENT,
         ("no", "not", "without", "absence of",
          "negative for", "free of",
          "(i|we) (see|find|observe) no", "(i|we) (do not|don't) (see|find|observe) [any]",
          "(does|do|did) not (show|demonstrate|reveal|have|contain|display|exhibit) [any|a|an]"),
         "A yes/no question answered by a finding stated absent ('no X', 'negative for X'), "
         "when X is what was asked.",
         template="{} pneumothorax.", options="YN", expected="B", qtype="yesno",
         question="Is there a pneumothorax?"),
    rule("finding.absent-contrast", Kind.FINDING_ABSENT,
         ("rather than", "instead of"),
         "A finding set aside in favour of another ('… T2 shine-through rather than true "
         "restriction').",
         template="DWI is bright, but this is shine-through {} restriction.", options="YN",
         expected="B", qtype="yesno", question="Is there restricted diffusion?"),
    rule("finding.none", Kind.FINDING_NONE,
         ("none (seen|identified|found|present|detected|visible|noted|evident|demonstrated)",),
         "'None seen': the question's own finding stated absent.",
         template="{}.", options="YN", expected="B", qtype="yesno",
         question="Is there a rib fracture?"),
    rule("finding.action", Kind.FINDING_ACTION,
         ("identify", "check", "look", "assess", "evaluate", "compare", "measure", "review",
          "examine", "consider", "determine", "search", "count", "confirm", "exclude",
          "locate", "inspect", "trace"),
         "A clause opened by one of these verbs is an instruction or a plan, not a finding "
         "('Identify the inked margin.').",
         template="{} the surgical margin.", options="YN", qtype="yesno",
         question="Is the surgical margin involved?"),
    rule("finding.end", Kind.FINDING_END,
         ("in", "on", "at", "with", "within", "along", "from", "by", "over", "near", "involving",
          "measuring", "throughout", "across", "seen", "noted", "causing", "extending"),
         "Where a finding's noun phrase ends: its head is the last word before these ('a "
         "small left pleural effusion with blunting' is about an effusion).",
         template="There is a small pleural effusion {} the base of the lung.", options="YN",
         expected="A", qtype="yesno", question="Is there a pleural effusion?"),
    rule("finding.label", Kind.FINDING_ABSENT,
         (": (absent|negative|none|no)", "= (absent|negative|no|0)",
          ": not (seen|present|identified|detected|visualized|visualised|evident|demonstrated)"),
         "A finding written as a label with an absent status ('LVI: absent', 'Effusion = "
         "none', 'LVI: not identified') answers no.",
         template="Lymphovascular invasion {}.", options="YN", expected="B", qtype="yesno",
         question="Is there lymphovascular invasion?"),
    rule("finding.absent-tail", Kind.FINDING_ABSENT,
         ("[is|are|was|were|has been|have been] not (seen|present|identified|detected|"
          "visualized|visualised|visible|evident|demonstrated|noted|appreciated)",
          "[is|are|was|were|has been|have been] (absent|excluded|ruled out)"),
         "A finding stated absent after it, its verb said or left out in a report's telegraphic "
         "style ('X is not seen', 'X excluded.', '— X absent'), the status ending its clause.",
         template="Pneumothorax {}.", options="YN", expected="B", qtype="yesno",
         question="Is there a pneumothorax?"),
    rule("finding.present", Kind.FINDING_PRESENT,
         ("there (is|are)", "(is|are) [clearly] (present|seen|noted|identified|visible|evident"
          "|demonstrated)", "(shows|show|demonstrates|demonstrate|reveals|reveal)",
          "positive for", "consistent with", "in keeping with", "compatible with",
          "(that|this) is", "(present|seen|noted|identified|visible|evident)"),
         "A yes/no question answered by a finding stated present, when X is what was asked "
         "and carries the question's words about its nature; a finding whose head is only the "
         "question's place ('the pulmonary artery' to 'a filling defect in the pulmonary "
         "arteries?') names the place, not the finding.",
         # each after a comma: a clause opening a sentence may be read as a noun phrase
         examples=(ex("On the left, there is a pneumothorax.", "YN", "A", "yesno",
                      "Is there a pneumothorax?"),
                   ex("On the left, a pneumothorax is seen at the apex.", "YN", "A", "yesno",
                      "Is there a pneumothorax?"),
                   ex("On this view, the film shows a pneumothorax.", "YN", "A", "yesno",
                      "Is there a pneumothorax?"),
                   ex("On this view, positive for pneumothorax.", "YN", "A", "yesno",
                      "Is there a pneumothorax?"),
                   ex("Findings consistent with a meniscal tear.", "YN", "A", "yesno",
                      "Is there a meniscal tear?"),
                   ex("Findings in keeping with a meniscal tear.", "YN", "A", "yesno",
                      "Is there a meniscal tear?"),
                   ex("Findings compatible with a meniscal tear.", "YN", "A", "yesno",
                      "Is there a meniscal tear?"),
                   ex("The pleural line is visible: that is a pneumothorax.", "YN", "A",
                      "yesno", "Is there a pneumothorax?"),
                   ex("NVD present, covering a third of the disc.", "YN", "A", "yesno",
                      "Is there NVD?")),
         counter=(ex("The CT scan shows the pulmonary artery with contrast.", "YN", None,
                     "yesno", "Is there a filling defect in the pulmonary arteries?"),)),
    rule("finding.nature", Kind.NATURE, _NATURE,
         "Words by which a question asks about a finding's nature: a finding answers yes only "
         "when stated with them ('calcifications are present but benign' does not answer 'Are "
         "there suspicious calcifications?').",
         examples=tuple(ex("Calcifications are present but appear benign.", "YN", None, "yesno",
                           f"Are there {w} calcifications?") for w in _NATURE)),
)
