"""The responses of the labelled set, family by family, as templates over an item.

Slots of a choice item: ``{L}`` the intended letter, ``{T}`` its text (``{t}`` lower case),
``{E}`` evidence for it; ``{O}``, ``{OT}``, ``{ot}``, ``{OE}`` another option; ``{P}``,
``{PT}``, ``{pt}``, ``{PE}`` a third one. Slots of a yes/no item: ``{F}`` the finding,
``{Y}`` the sign that it is there, ``{N}`` the sign that it is not. Every template says
exactly one thing a clinician would read as the answer (the intended one), or — in the
must-abstain families — nothing a clinician would score.
"""

from __future__ import annotations

THINK = [("<think>", "</think>"), ("<thinking>", "</thinking>"), ("<reasoning>", "</reasoning>"),
         ("\u25c1think\u25b7", "\u25c1/think\u25b7")]

PLAIN_LETTER = [
    "{L}", "{L}.", "({L})", "**{L}**", "Answer: {L}", "The answer is {L}.", "Option {L}",
    "{L})", "[{L}]", "Correct answer: {L}", "The correct option is {L}.", "My answer: {L}",
    "I choose {L}.", "Answer - {L}", "**Answer:** {L}", "The best answer is ({L}).",
    "I'd go with {L}.", "Choice {L}", "`{L}`", "### Answer\n{L}",
]

PLAIN_TEXT = [
    "{T}", "{T}.", "**{T}**", "{t}", "The image shows {t}.", "This is {t}.",
    "Findings are consistent with {t}.", "Diagnosis: {T}", "It's {t}.", "{L}: {T}",
    "{L}. {T}", "Most consistent with {t}.", "{T} \u2014 {E}.", "I see {E}, typical of {t}.",
    "The key feature is {E}; the answer is {t}.", "{T}, given {E}.",
    "There is {E}. Impression: {t}.", "Overall picture: {t}.", "My read: {t}.",
    "{L} ({T})",
]

THOUGHTS = [
    "The question asks which option fits. {OT} would show {OE}. Looking again, I see {E}, so "
    "the answer is {L}, not {O}.",
    "Let me go through the options.\n{O}: {OT} \u2013 would need {OE}.\n{L}: {T} \u2013 would "
    "need {E}.\nThe image has {E}.",
    "Hmm, could this be {ot}? The answer is {O}... no wait. The defining sign here is {E}.",
    "First impression: {O}. But {OE} is not there, while {E} is. That points to {t}.",
    "Options {O} and {P} don't fit. Between the rest, {E} decides it.",
    "I initially wrote the answer is {O}. Re-checking: {E}. So it must be {t}.",
    "The answer is {P}? No, {pt} does not fit what I see: {E}. {L} it is.",
    "Key observation: {E}. Differential: {ot}, {pt}. Final decision: {t}.",
]

THINK_FINAL = [
    "{L}", "**{L}**", "Answer: {L}", "{T}", "The answer is {L}: {T}.", "Final answer: {L}",
    "**{T}**", "{L}. {T}",
]

THINK_OPEN = [
    "{L}\n<think>Let me double-check: could it be {ot}? {OE} would be needed",
    "Answer: {T}\n\n<think>\nChecking once more whether {O} fits",
    "We need to decide between {ot} and {t}. The image shows {E}, so {t}.\n</think>\n\n"
    "Answer: {L}",
    "Okay, {O} seems likely at first, but {E} is visible.</think>\n{T}",
    "Thinking about {ot} versus {t}... {E}.</thinking>\n\n**Final answer: {L}**",
]

THINK_REVISED = [
    "<think>\nI think the answer is {O} because of {OE}.\nWait, that sign is not there. "
    "Re-reading the image: {E}. The answer is {L}.\n</think>\n\n{L}",
    "<think>The answer is {O}.</think>\nOn reflection, the answer is {L}: {E}.",
    "<think>Tentatively {ot}. Hmm, but {E} argues for {t}.</think>\nFinal answer: {T}",
    "<think>A first pass suggests {O}. A second look shows {E}.</think>\n\nThe correct answer "
    "is {L}.",
    "<think>Option {O}? Maybe. Option {L}? {E} fits.</think> {L}",
]

BOXED = [
    "\\boxed{{{L}}}", "$\\boxed{{{L}}}$", "The answer is $\\boxed{{\\text{{{T}}}}}$.",
    "Therefore,\n\\[\\boxed{{{L}}}\\]", "{E}, hence $\\boxed{{\\text{{{L}. {T}}}}}$",
    "Final answer: $\\boxed{{\\textbf{{{L}}}}}$", "**Answer:** $\\boxed{{{T}}}$",
    "Given {E}, the answer is \\(\\boxed{{{L}}}\\).",
    "<think>Is it {O}? No, {E}.</think>\n$\\boxed{{{L}}}$",
    "Step 1: {E}.\nStep 2: this excludes {ot}.\n\n$$\\boxed{{\\text{{{T}}}}}$$",
]

JSON = [
    '{{"answer": "{L}"}}',
    '```json\n{{"answer": "{L}", "confidence": 0.8}}\n```',
    '{{"reasoning": "{E}; {ot} is less likely.", "final_answer": "{L}"}}',
    '{{"choice": "{T}"}}',
    '{{"selected_option": "{L}: {T}"}}',
    '```json\n{{\n  "prediction": "{t}",\n  "rationale": "{E}"\n}}\n```',
    'Here is my answer in JSON:\n{{"answer": "{L}"}}',
    '```json\n{{"finding": "{E}", "answer": "{L}", "alternatives_considered": ["{O}"]}}\n```',
    "{{'answer': '{L}'}}",
    '{{"answer_letter": "{L}", "answer_text": "{T}"}}',
]

TABLE = [
    "| Option | Present |\n|---|---|\n{rows_check}",
    "| Finding | Seen? |\n| --- | --- |\n{rows_yesno}",
    "Checklist:\n{rows_box}",
    "{rows_word}",
    "{rows_ballot}",
]

FINAL_REVISED = [
    "Final answer: {O}\n\nWait \u2014 {E}. That changes things.\n\nFinal answer: {L}",
    "My initial answer is {O}. On second thought, {E} is the decisive sign, so the answer is "
    "{L}.",
    "Answer: {O}\nCorrection \u2014 answer: {L}",
    "**Final answer:** {O}\n\nRe-examining the image, I notice {E}.\n\n**Revised final "
    "answer:** {L}",
    "The answer is {O}. Actually, no: {OE} is absent and {E} is present. The answer is {L}.",
]

RESTATED = [
    "The options are:\n{listing}\n\nGiven {E}, I pick {L}.",
    "Options:\n{listing}\n\nThe image shows {E}, which means {t}.",
    "Let me restate the choices.\n{listing}\n\nAnswer: {L}",
    "Question options:\n{listing}\n\nBest fit: {T}.",
    "{listing}\n\nOf these, I would choose {L}, because of {E}.",
]

YESNO_SYNONYMS = [
    "Positive.", "Present.", "Affirmative.", "Correct \u2014 {Y}.", "Yes, {Y}.",
    "Positive: {Y}.", "Based on the image, the answer is yes.", "Present ({Y}).",
    "Negative.", "Absent.", "Not seen.", "Negative; {N}.", "No \u2014 {N}.", "Incorrect.",
    "Based on the image, the answer is no.", "Absent \u2014 {N}.",
]
YES_SYNONYMS = 8  # the first eight say yes, the rest no

LANG_YES = ["S\u00ed, {es}.", "Oui.", "Ja.", "Sim.", "\u662f\u7684\u3002", "\u6709\u3002",
            "S\u00ec.", "Respuesta: s\u00ed", "R\u00e9ponse : oui", "\u7b54\u6848\uff1a\u662f",
            "Positivo.", "Ja, vorhanden."]
LANG_NO = ["No, no se observa.", "Non.", "Nein.", "N\u00e3o.", "\u5426\u3002",
           "\u6ca1\u6709\u3002", "Non, absent.", "Antwort: nein", "Resposta: n\u00e3o",
           "\u7b54\u6848\uff1a\u5426", "Negativo.", "\u4e0d\u662f\u3002"]
LANG_CHOICE = [
    "Respuesta: {L}", "La respuesta correcta es {L}.", "R\u00e9ponse : {L}",
    "La r\u00e9ponse est {L}.", "Antwort: {L}", "Die richtige Antwort ist {L}.",
    "Resposta: {L}", "A resposta \u00e9 {L}.", "\u7b54\u6848\uff1a{L}",
    "\u7b54\u6848\u662f{L}\u3002", "Risposta: {L}", "\u56de\u7b54\uff1a{L}",
]

NEGATION_SCOPE = [
    "Not {ot} but {t}.", "Neither {ot} nor {pt} \u2014 {t}.", "{OT} is excluded; the answer "
    "is {L}.", "It isn't {ot}; it's {t}.", "Rather than {ot}, this is {t}.",
    "No {ot}. {T} is seen.", "{OT} can be ruled out, leaving {t}.",
    "This is {t}, not {ot}.", "Not {O}. The answer is {L}.",
    "{OT}? No \u2014 {E} makes it {t}.",
]

VERBOSE = [
    "{OT} would typically show {OE}, which is not present here. Similarly, {pt} would be "
    "expected to show {PE}; this is not seen either. What we do see is {E}, the hallmark of "
    "{t}. Therefore, the answer is {L}.",
    "Let's weigh the options. If this were {ot}, we would expect {OE}. If it were {pt}, {PE} "
    "would be visible. Neither is the case. Instead there is {E}. The picture is that of {t}.",
    "The most informative sign is {E}. This is characteristic of {t}. {OT} is less likely "
    "because {OE} is absent, and {PT} is unlikely without {PE}.",
    "Careful review: no evidence of {OE}, so {ot} is unlikely; {pt} is excluded as well. "
    "With {E}, the diagnosis is {t}.",
    "Although {ot} is common in this setting, it would show {OE}. Here we see {E}, so I favour "
    "{t}, which is my final answer.",
]

NEGATIVE_FINDINGS = [
    "No evidence of {F}.", "There is no {F}; {N}.", "{F} is absent.", "I see no {F}.",
    "Negative for {F}.", "No {F} is identified.", "The image does not show {F}.",
    "There is no {F} on this image.", "No {F}; {N}.",
]
POSITIVE_FINDINGS = [
    "No doubt, there is {F}.", "{F} is present: {Y}.", "There is {F}, with {Y}.",
]

NEGATED = [
    "Not {t}.", "{T} is ruled out.", "It is definitely not {L}.", "There is no evidence of {t}.",
    "I can exclude {t}.", "{T}? No.", "This is not {t}.", "{T} is unlikely.",
    "The answer is not {L}.", "{T} has been excluded.",
]

HEDGED = [
    "{T} cannot be excluded.", "Cannot rule out {t}.", "{T} is not excluded.",
    "Possibly {t}.", "It could be {t} or {ot}.",
    "Most likely {t}, although {ot} remains possible.",
    "The differential includes {t} and {ot}.",
    "I'm leaning towards {t} but can't be certain.", "Either {L} or {O}.", "Perhaps {t}.",
    "Probably {t}, maybe {ot}.", "{T} versus {ot} \u2014 hard to say.",
    "Suggestive of {t}, but {ot} cannot be ruled out.",
    "Final answer: {L}. However, {ot} cannot be excluded.",
    "It might be {t}.", "Findings are equivocal between {t} and {ot}.",
]
HEDGED_YESNO = ["{F} cannot be excluded.", "Possibly.", "Maybe yes.", "Equivocal.",
                "Hard to say; {F} might be present.", "Cannot rule out {F}."]

REFUSAL = [
    "I'm unable to interpret medical images.", "No image was attached to your question.",
    "As an AI language model, I cannot provide a medical diagnosis.",
    "I cannot provide a diagnosis; please consult a radiologist.",
    "Sorry, I can't help with that.", "I don't know.",
    "There is not enough information to answer this question.",
    "I cannot determine this from the image provided.",
    "Unable to assess: the image did not load.", "I can't see any image here.",
    "Without the actual image I cannot answer, but {t} is common.",
    "I'm sorry, but I cannot view images. If I had to guess, {L}.",
    "Insufficient detail to decide.", "I am not able to answer medical questions.",
    "The image could not be displayed, so I can't tell.",
]

NOT_COMMITTED = [
    "<think>\nThe question: {Q} I see {E}... but also something like {OE}. Let me "
    "weigh {ot} against {t}. The margins are",
    "<think>Options {L} and {O} both seem possible. I need to look at",
    "<think>Let me think. The answer is {L}, probably.</think>",
    "<think>{E} suggests {t}.</think>",
    "<thinking>Comparing {ot} and {t}: the key sign would be {E}.</thinking>\n\nI need a "
    "closer look at the image before answering.",
    "<think>Could be {O}. Could be {L}. Let me reconsider",
    "\u25c1think\u25b7The answer is {L}: {E}.\u25c1/think\u25b7",
    "<think>First {ot}, then {t}... the answer is {L}</think>\n\nLet me reconsider the options "
    "once more.",
]

LETTER_NAMES_NULL = [
    "E. coli.", "The organism is E. coli.", "Consistent with E. coli infection.",
    "B. fragilis.", "This is most likely C. difficile.", "A. fumigatus hyphae.",
    "Hepatitis E virus.", "Group B streptococcus.", "Answer: T cell lymphoma",
    "Vitamin D deficiency.", "Type A aortic dissection.", "Protein C deficiency.",
    "The answer is E. coli.", "C. neoformans.", "The answer is B. fragilis",
]
LETTER_NAMES_READ = ["S. aureus.", "The organism is K. pneumoniae.", "C. albicans",
                     "M. tuberculosis.", "P. aeruginosa, given the pigment."]
LETTER_NAMES_READ_LETTERS = ["B", "A", "D", "E", "C"]

AMBIGUOUS = [
    "{T} or {ot}.", "{L} and {O}.", "{L}/{O}", "Both {t} and {ot}.", "{T}; {ot}.",
    "The answer is {L} or {O}.", "({L}) {T} and ({O}) {OT}", "{L}, {O}",
]

SPELLING = {
    "liver": [("Hemangioma.", "B"), ("Hepatic hemangiomas", "B"), ("Hepatocellular "
              "carcinomas", "A"), ("Focal nodular hyperplasias", "C"), ("Metastases", "D"),
              ("Liver metastases from a colorectal primary.", "D")],
    "head": [("Subdural hematoma", "A"), ("Extradural hematoma.", "B"),
             ("Subarachnoid hemorrhage", "C"), ("Intraparenchymal hemorrhage", "D"),
             ("subarachnoid haemorrhages", "C")],
    "cxr": [("Pulmonary edema.", "C"), ("Bilateral pleural effusions.", "A"),
            ("Pneumothoraces", "B"), ("Pleural-effusion", "A"), ("PULMONARY OEDEMA", "C")],
    "oct": [("Choroidal neovascularization", "A"), ("Diabetic macular edema", "B"),
            ("Normal retinas", "D")],
    "skin_lesion": [("Seborrheic keratosis", "D"), ("Melanocytic nevus", "E"),
                    ("Melanocytic nevi", "E"), ("Basal-cell carcinoma", "B"),
                    ("M\u00e9lanoma", "A")],
    "fundus": [("Age related macular degeneration", "A"), ("Retinal vein occlusions", "D")],
    "glaucoma": [("Non glaucoma", "B"), ("Nonglaucoma", "B")],
    "mammo_path": [("Fibroadenomas", "C"), ("Simple cysts", "D")],
}

ABBREVIATIONS = {
    "liver": [("HCC", "A"), ("The lesion is an FNH.", "C"), ("HCC in a cirrhotic liver.", "A")],
    "head": [("SDH", "A"), ("Acute EDH.", "B"), ("SAH.", "C")],
    "chest_ct": [("ARDS", "A"), ("UIP pattern.", "B"), ("PE in the right lower lobe.", "C"),
                 ("PCP", "D")],
    "brain": [("GBM", "A")],
    "mammo_path": [("DCIS", "A"), ("IDC.", "B")],
    "view": [("MLO", "B"), ("CC view.", "A")],
    "oct": [("CNV", "A"), ("DME with subretinal fluid.", "B")],
    "fundus": [("AMD", "A"), ("RVO.", "D"), ("DR", "B")],
    "dr_grade": [("PDR", "E"), ("Moderate NPDR", "C")],
    "lung_path": [("SCC", "B")],
    "breast_path": [("ILC", "B"), ("DCIS", "C"), ("IDC, grade 2.", "A")],
    "skin_lesion": [("BCC", "B"), ("SCC", "C"), ("SK", "D")],
    "rash": [("AD", "B")],
}

# Whole responses in the styles of current models, written one by one for one item each:
# (item key, response, intended letter or None). Longer, with Markdown, lists and asides.
MODEL_STYLE = [
    ("cxr", "The image shows a frontal chest radiograph. There is a sharp white line at the "
     "right apex with no lung markings peripheral to it, and the right lung is partially "
     "collapsed.\n\nThe correct answer is **B. Pneumothorax**.", "B"),
    ("cxr", "**Analysis of options:**\n- **A. Pleural effusion**: would blunt the "
     "costophrenic angle; the angles are sharp.\n- **B. Pneumothorax**: no visceral pleural "
     "line is seen.\n- **C. Pulmonary oedema**: there are Kerley B lines and perihilar "
     "haziness.\n- **D. Lobar consolidation**: no air bronchograms.\n\n**Answer: C**", "C"),
    ("cxr", "Based on the provided image, the most likely diagnosis is D) Lobar consolidation, "
     "given the dense right lower lobe opacity with air bronchograms.", "D"),
    ("cxr", "I'm not able to give a diagnosis, but the image appears to show a pneumothorax.",
     None),
    ("brain", "## Findings\nThere is an extra-axial, dural-based enhancing mass with a dural "
     "tail and adjacent hyperostosis.\n\n## Impression\nMeningioma (option B).", "B"),
    ("brain", "This is a tricky one. Glioblastoma and metastases can both ring-enhance, and an "
     "abscess restricts diffusion centrally. Without the DWI sequence I can't decide between "
     "them.", None),
    ("brain", "Answer: A) Glioblastoma\n\nReasoning: the lesion crosses the corpus callosum "
     "(butterfly pattern) with a thick irregular enhancing rim and central necrosis; a "
     "metastasis would usually be at the grey-white junction and an abscess would have a "
     "thin smooth wall.", "A"),
    ("liver", "The lesion shows peripheral nodular discontinuous enhancement in the arterial "
     "phase with progressive centripetal fill-in on delayed images. These are the classic "
     "features of a hemangioma, so the answer is B.", "B"),
    ("liver", "Arterial phase hyperenhancement, washout and an enhancing capsule in a "
     "cirrhotic liver: LI-RADS 5, i.e. HCC.", "A"),
    ("head", "Crescent-shaped hyperdense collection along the left convexity crossing the "
     "coronal suture \u2192 **subdural hematoma** (A).", "A"),
    ("head", "Options B or C seem most plausible; I would need the bone window to tell.", None),
    ("chest_ct", "Findings: diffuse bilateral ground-glass opacities with dependent "
     "consolidation in a ventilated patient.\nConclusion: acute respiratory distress "
     "syndrome.", "A"),
    ("density", "The breast tissue is heterogeneously dense, which may obscure small masses "
     "(BI-RADS density category C).", "C"),
    ("density", "Density: B or C \u2014 borderline between scattered fibroglandular and "
     "heterogeneously dense.", None),
    ("mammo_finding", "There is a cluster of fine pleomorphic calcifications in the upper "
     "outer quadrant; no mass or architectural distortion is seen. Main finding: "
     "calcification.", "B"),
    ("mammo_path", "1. Morphology: irregular mass with spiculated margins.\n2. Associated "
     "features: skin retraction.\n3. Most likely pathology: invasive ductal carcinoma.", "B"),
    ("mammo_path", "Could be DCIS given the calcifications, but a fibroadenoma with "
     "degenerating calcifications is also possible.", None),
    ("view", "This is an MLO view: the pectoral muscle extends obliquely to the level of the "
     "nipple.", "B"),
    ("oct", "The OCT demonstrates intraretinal hyporeflective cystoid spaces with increased "
     "central retinal thickness, consistent with diabetic macular edema (B).", "B"),
    ("oct", "OCT findings:\n* Subretinal hyperreflective material \u2713\n* Subretinal "
     "fluid \u2713\n* Drusen \u2717\n\nDiagnosis: choroidal neovascularization.", "A"),
    ("fundus", "Optic disc: cup-to-disc ratio about 0.8 with inferior notching.\nMacula: "
     "normal.\nVessels: normal.\n\n=> Glaucoma", "C"),
    ("fundus", "I am unable to see the fundus photograph you are referring to. Please upload "
     "it again.", None),
    ("dr_grade", "Microaneurysms only, no haemorrhages or exudates \u2014 this is mild NPDR "
     "(option B).", "B"),
    ("dr_grade", "There is neovascularisation at the disc, so the grade is proliferative "
     "diabetic retinopathy.", "E"),
    ("glaucoma", "Healthy neuroretinal rim, no notching, small physiological cup. Not "
     "glaucomatous \u2192 Non-glaucoma.", "B"),
    ("lung_path", "The tile shows keratinizing squamous cell carcinoma with keratin pearls "
     "and intercellular bridges.", "B"),
    ("lung_path", "Small round blue cells with nuclear moulding, salt-and-pepper chromatin and "
     "crush artefact: small-cell carcinoma.", "C"),
    ("lung_path", "The alveolar architecture is preserved; I don't see malignant glands or "
     "keratinisation. Benign lung tissue.", "D"),
    ("breast_path", "Discohesive cells infiltrating in single file (Indian-file pattern), "
     "typical of invasive lobular carcinoma.", "B"),
    ("organism", "Gram-positive cocci in clusters \u2014 Staphylococcus aureus is the "
     "organism.", "B"),
    ("organism", "Acid-fast bacilli in a caseating granuloma point to M. tuberculosis.", "E"),
    ("organism", "Budding yeast with pseudohyphae. Could be Candida, but I cannot rule out "
     "other fungi.", None),
    ("liver_path", "Macrovesicular fat in >60% of hepatocytes without significant "
     "inflammation or fibrosis: steatosis.", "A"),
    ("skin_lesion", "Dermoscopy: arborizing vessels, blue-grey ovoid nests and a shiny "
     "pearly surface. Diagnosis: BCC.", "B"),
    ("skin_lesion", "The lesion is asymmetric with multiple colours and a blue-white veil; "
     "I'd be worried about melanoma, although a dysplastic naevus can look similar.", None),
    ("skin_lesion", "Stuck-on appearance, milia-like cysts and comedo-like openings: "
     "seborrheic keratosis (D). Not a melanoma.", "D"),
    ("rash", "Annular scaly plaque with an active border and central clearing. KOH would "
     "confirm, but clinically this is tinea corporis.", "C"),
    ("rash", "Psoriasis vs eczema \u2014 both are possible on this image.", None),
    ("mammo_multi", "Findings: (1) irregular spiculated mass, (2) associated fine "
     "pleomorphic calcifications. No skin thickening or asymmetry.\nAnswer: A, B", ["A", "B"]),
    ("oct_multi", "I can see subretinal fluid and intraretinal cysts; there are no drusen "
     "and no epiretinal membrane.", ["A", "B"]),
]
