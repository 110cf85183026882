"""The commitment rules in other languages: hedges, refusals, alternatives, changes of mind.

Models asked in English often answer, or add a doubt, in another language. Yes/no words and
answer markers of these languages are in ``resources/answers/yes_no_words.yaml``; these rows
keep a hedge, a refusal, an "or" or an edit written in another language from leaving a credit
on the answer before it.
"""

from __future__ import annotations

from medvqa.reading.rules._build import rule
from medvqa.reading.rules._types import Kind

__all__ = ["LANGUAGES"]

_TAIL = "Answer: B\n\n"

LANGUAGES = (
    rule("hedge.es", Kind.HEDGE,
         ("quizás", "quizá", "tal vez", "posiblemente", "probablemente", "no estoy seguro",
          "no estoy segura", "podría", "no lo puedo confirmar", "no se puede descartar"),
         "Spanish hedges.", template=_TAIL + "pero {}.", options="CXR", lang="es"),
    rule("hedge.pt", Kind.HEDGE,
         ("talvez", "possivelmente", "provavelmente", "não tenho certeza", "poderia",
          "fico entre", "não se pode excluir"),
         "Portuguese hedges.", template=_TAIL + "mas {}.", options="CXR", lang="pt"),
    rule("hedge.fr", Kind.HEDGE,
         ("peut-être", "pas sûr", "pas sûre", "n'est pas exclu", "n'est pas exclue",
          "hésiter", "hésite", "pourrait", "probablement", "possiblement"),
         "French hedges.", template=_TAIL + "mais {}.", options="CXR", lang="fr"),
    rule("hedge.de", Kind.HEDGE,
         ("vielleicht", "möglicherweise", "wahrscheinlich", "könnte", "nicht sicher",
          "nicht ausgeschlossen", "unklar", "fraglich"),
         "German hedges.", template=_TAIL + "aber {}.", options="CXR", lang="de"),
    rule("hedge.it", Kind.HEDGE,
         ("forse", "potrebbe", "probabilmente", "non sono sicuro", "non sono sicura",
          "non si può escludere"),
         "Italian hedges.", template=_TAIL + "ma {}.", options="CXR", lang="it"),
    rule("hedge.nl", Kind.HEDGE,
         ("misschien", "mogelijk", "waarschijnlijk", "niet zeker", "zou kunnen"),
         "Dutch hedges.", template=_TAIL + "maar {}.", options="CXR", lang="nl"),
    rule("hedge.ru", Kind.HEDGE,
         ("возможно", "может быть", "не уверен", "не уверена", "вероятно", "не исключ*",
          "впрочем"),
         "Russian hedges.", template=_TAIL + "но {}.", options="CXR", lang="ru"),
    rule("hedge.tr", Kind.HEDGE,
         ("belki", "olabilir", "emin değilim", "muhtemelen"),
         "Turkish hedges.", template=_TAIL + "ama {}.", options="CXR", lang="tr"),
    rule("hedge.zh", Kind.HEDGE,
         ("可能", "也许", "或许", "不确定", "不能确定", "不能完全确定", "无法确定", "不排除"),
         "Chinese hedges.", template=_TAIL + "不过{}。", options="CXR", lang="zh"),
    rule("hedge.ja", Kind.HEDGE,
         ("かもしれ", "たぶん", "多分", "わからない", "確信がない", "否定できない"),
         "Japanese hedges.", template=_TAIL + "ただし{}。", options="CXR", lang="ja"),
    rule("hedge.ko", Kind.HEDGE,
         ("아마", "가능성", "확실하지", "모르겠", "배제할 수 없"),
         "Korean hedges.", template=_TAIL + "하지만 {}.", options="CXR", lang="ko"),
    rule("hedge.hi", Kind.HEDGE,
         ("शायद", "संभवतः", "निश्चित नहीं", "पक्का नहीं", "हो सकता"),
         "Hindi hedges.", template=_TAIL + "लेकिन {}।", options="CXR", lang="hi"),
    rule("hedge.ar", Kind.HEDGE,
         ("ربما", "قد يكون", "غير متأكد", "محتمل"),
         "Arabic hedges.", template=_TAIL + "لكن {}.", options="CXR", lang="ar"),
    rule("refusal.other-languages", Kind.REFUSAL,
         ("no puedo", "no es posible determinar", "je ne peux pas", "impossible de",
          "ich kann nicht", "nicht möglich", "non posso", "não posso", "não é possível",
          "не могу", "невозможно", "无法判断", "不能判断", "我无法", "できません",
          "판단할 수 없", "belirlenemez", "kan niet", "لا يمكن"),
         "Refusals in other languages.", template="{}: pneumothorax.", options="CXR", lang="*"),
    rule("alternative.other-languages", Kind.ALTERNATIVE,
         ("o", "ou", "oder", "of", "veya", "ya da", "или", "या", "أو", "或", "还是",
          "または", "또는", "아니면"),
         "'Or' in other languages: two readings joined are alternatives.",
         template="Mass {} calcification", options="MM", qtype="multi", lang="*"),
    rule("revision.other-languages", Kind.REVISION,
         ("corrección", "correção", "correzione", "korrektur", "nachtrag", "düzeltme",
          "исправление", "поправка", "更正", "修正", "追記", "訂正", "수정", "संशोधन", "تصحيح",
          "en realidad", "en fait", "eigentlich", "in realtà", "na verdade", "на самом деле",
          "实际上", "実際は", "사실은"),
         "A change of mind in another language: another option named after it.",
         template=_TAIL + "{}: pleural effusion.", options="CXR", lang="*"),
)
