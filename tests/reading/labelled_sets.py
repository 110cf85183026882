"""The items behind the labelled response set: option sets and yes/no questions per specialty.

Each choice set has a question, options (letter → text, as a benchmark would offer them), and
for every option a sentence of evidence a model might give for it; each yes/no question has the
finding asked about and a sentence for and against it. ``labelled_set.py`` writes responses to
these items in the styles of current models; the intended answer is known by construction.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChoiceSet:
    """A single- or multiple-choice item and what a model might say about each option."""

    key: str
    specialty: str
    question: str
    options: dict[str, str]
    evidence: dict[str, str]


@dataclass(frozen=True)
class YesNo:
    """A yes/no item about one finding."""

    key: str
    specialty: str
    question: str
    finding: str
    present: str
    absent: str


CHOICES = [
    ChoiceSet("cxr", "radiology", "What is the main abnormality on this chest radiograph?",
              {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Pulmonary oedema",
               "D": "Lobar consolidation"},
              {"A": "a meniscus-shaped opacity blunting the left costophrenic angle",
               "B": "a sharp visceral pleural line with no lung markings beyond it",
               "C": "bilateral perihilar haziness with Kerley B lines",
               "D": "a dense right lower lobe opacity with air bronchograms"}),
    ChoiceSet("brain", "radiology", "Which diagnosis best fits this contrast-enhanced brain MRI?",
              {"A": "Glioblastoma", "B": "Meningioma", "C": "Brain metastases",
               "D": "Cerebral abscess"},
              {"A": "an irregular rim-enhancing mass with central necrosis crossing the corpus "
                    "callosum",
               "B": "an extra-axial dural-based mass with a dural tail",
               "C": "several small enhancing lesions at the grey-white junction",
               "D": "a smooth thin-walled ring-enhancing lesion with central restricted "
                    "diffusion"}),
    ChoiceSet("liver", "radiology", "What is the most likely diagnosis of this liver lesion?",
              {"A": "Hepatocellular carcinoma", "B": "Haemangioma",
               "C": "Focal nodular hyperplasia", "D": "Metastasis"},
              {"A": "arterial hyperenhancement with washout and a capsule in a cirrhotic liver",
               "B": "peripheral nodular enhancement with centripetal fill-in",
               "C": "homogeneous arterial enhancement with a central scar",
               "D": "a hypoenhancing lesion with a target appearance in a patient with a known "
                    "primary"}),
    ChoiceSet("head", "radiology", "What type of intracranial haemorrhage is shown on this CT?",
              {"A": "Subdural haematoma", "B": "Extradural haematoma",
               "C": "Subarachnoid haemorrhage", "D": "Intraparenchymal haemorrhage"},
              {"A": "a crescentic hyperdense collection crossing the suture lines",
               "B": "a biconvex collection limited by the sutures",
               "C": "hyperdense blood filling the basal cisterns and sulci",
               "D": "a rounded hyperdensity in the right basal ganglia"}),
    ChoiceSet("chest_ct", "radiology", "Which diagnosis is most consistent with this chest CT?",
              {"A": "Acute respiratory distress syndrome", "B": "Usual interstitial pneumonia",
               "C": "Pulmonary embolism", "D": "Pneumocystis pneumonia"},
              {"A": "diffuse bilateral ground-glass opacities with dependent consolidation",
               "B": "basal subpleural honeycombing with traction bronchiectasis",
               "C": "a filling defect in the right lower lobe pulmonary artery",
               "D": "perihilar ground-glass opacities with cysts in an immunocompromised "
                    "patient"}),
    ChoiceSet("density", "mammography", "What is the breast density category?",
              {"A": "Almost entirely fatty", "B": "Scattered fibroglandular densities",
               "C": "Heterogeneously dense", "D": "Extremely dense"},
              {"A": "nearly all of the breast is radiolucent fat",
               "B": "a few scattered islands of glandular tissue",
               "C": "glandular tissue in most of the breast that could obscure small masses",
               "D": "almost the whole breast is radiopaque"}),
    ChoiceSet("mammo_finding", "mammography", "What is the main finding in this mammogram?",
              {"A": "Mass", "B": "Calcification", "C": "Architectural distortion",
               "D": "Asymmetry"},
              {"A": "a round space-occupying lesion seen on both views",
               "B": "clustered fine pleomorphic bright specks",
               "C": "retraction and spiculation of the surrounding tissue",
               "D": "a density seen on one view only without convex borders"}),
    ChoiceSet("mammo_path", "mammography", "What is the most likely pathology of this lesion?",
              {"A": "Ductal carcinoma in situ", "B": "Invasive ductal carcinoma",
               "C": "Fibroadenoma", "D": "Simple cyst"},
              {"A": "fine linear branching calcifications in a segmental distribution",
               "B": "an irregular spiculated mass",
               "C": "an oval circumscribed mass with coarse popcorn calcification",
               "D": "an anechoic round lesion with posterior enhancement on ultrasound"}),
    ChoiceSet("view", "mammography", "Which mammographic view is this?",
              {"A": "Craniocaudal", "B": "Mediolateral oblique"},
              {"A": "the pectoralis muscle is barely visible at the posterior edge",
               "B": "the pectoralis muscle runs obliquely down to the level of the nipple"}),
    ChoiceSet("oct", "fundus_oct", "What does this OCT scan show?",
              {"A": "Choroidal neovascularisation", "B": "Diabetic macular oedema",
               "C": "Drusen", "D": "Normal retina"},
              {"A": "a subretinal hyperreflective lesion with subretinal fluid",
               "B": "intraretinal cystoid spaces with retinal thickening",
               "C": "dome-shaped elevations of the retinal pigment epithelium",
               "D": "a normal foveal contour with intact layers"}),
    ChoiceSet("fundus", "fundus_oct", "What is the diagnosis on this fundus photograph?",
              {"A": "Age-related macular degeneration", "B": "Diabetic retinopathy",
               "C": "Glaucoma", "D": "Retinal vein occlusion"},
              {"A": "confluent soft drusen and pigment changes at the macula",
               "B": "dot-blot haemorrhages, microaneurysms and hard exudates",
               "C": "a cup-to-disc ratio of about 0.8 with rim thinning",
               "D": "flame haemorrhages in all four quadrants with tortuous veins"}),
    ChoiceSet("dr_grade", "fundus_oct", "What is the diabetic retinopathy grade?",
              {"A": "No diabetic retinopathy", "B": "Mild non-proliferative diabetic retinopathy",
               "C": "Moderate non-proliferative diabetic retinopathy",
               "D": "Severe non-proliferative diabetic retinopathy",
               "E": "Proliferative diabetic retinopathy"},
              {"A": "no microaneurysms or haemorrhages",
               "B": "microaneurysms only",
               "C": "haemorrhages and hard exudates without severe features",
               "D": "venous beading in two quadrants",
               "E": "neovascularisation at the disc"}),
    ChoiceSet("glaucoma", "fundus_oct", "Is this optic disc glaucomatous?",
              {"A": "Glaucoma", "B": "Non-glaucoma"},
              {"A": "a large cup with inferior rim notching",
               "B": "a healthy pink rim with a small cup"}),
    ChoiceSet("lung_path", "pathology", "Which diagnosis does this H&E lung tile show?",
              {"A": "Adenocarcinoma", "B": "Squamous cell carcinoma", "C": "Small cell carcinoma",
               "D": "Benign lung tissue"},
              {"A": "malignant glands with mucin production",
               "B": "keratin pearls and intercellular bridges",
               "C": "sheets of small cells with nuclear moulding and scant cytoplasm",
               "D": "normal alveoli lined by flat pneumocytes"}),
    ChoiceSet("breast_path", "pathology", "What does this breast histology show?",
              {"A": "Invasive ductal carcinoma", "B": "Invasive lobular carcinoma",
               "C": "Ductal carcinoma in situ", "D": "Benign breast tissue"},
              {"A": "irregular nests and tubules infiltrating a desmoplastic stroma",
               "B": "single-file discohesive cells infiltrating the stroma",
               "C": "atypical cells filling ducts with an intact myoepithelial layer",
               "D": "normal lobules with two cell layers"}),
    ChoiceSet("organism", "pathology", "Which organism is seen in this stained section?",
              {"A": "Klebsiella pneumoniae", "B": "Staphylococcus aureus",
               "C": "Pseudomonas aeruginosa", "D": "Candida albicans",
               "E": "Mycobacterium tuberculosis"},
              {"A": "encapsulated Gram-negative rods",
               "B": "Gram-positive cocci in grape-like clusters",
               "C": "slender Gram-negative rods with a blue-green pigment in culture",
               "D": "budding yeasts with pseudohyphae",
               "E": "acid-fast bacilli within caseating granulomas"}),
    ChoiceSet("liver_path", "pathology", "What is the main finding in this liver biopsy?",
              {"A": "Steatosis", "B": "Cirrhosis", "C": "Chronic hepatitis",
               "D": "Normal liver"},
              {"A": "large fat vacuoles pushing hepatocyte nuclei aside",
               "B": "regenerative nodules surrounded by fibrous septa",
               "C": "portal lymphocytic infiltrates with interface activity",
               "D": "preserved lobular architecture without inflammation"}),
    ChoiceSet("skin_lesion", "dermatology", "What is the most likely diagnosis of this skin "
              "lesion?",
              {"A": "Melanoma", "B": "Basal cell carcinoma", "C": "Squamous cell carcinoma",
               "D": "Seborrhoeic keratosis", "E": "Melanocytic naevus"},
              {"A": "an asymmetric lesion with irregular borders, several colours and a "
                    "blue-white veil",
               "B": "a pearly papule with arborising telangiectasia and a rolled edge",
               "C": "a keratotic crusted nodule on sun-damaged skin",
               "D": "a stuck-on waxy plaque with milia-like cysts",
               "E": "a small symmetric brown macule with a regular pigment network"}),
    ChoiceSet("rash", "dermatology", "Which diagnosis fits this rash?",
              {"A": "Psoriasis", "B": "Atopic dermatitis", "C": "Tinea corporis",
               "D": "Lichen planus"},
              {"A": "well-demarcated salmon-pink plaques with silvery scale on the extensors",
               "B": "ill-defined eczematous patches in the flexures",
               "C": "an annular plaque with a scaly advancing edge and central clearing",
               "D": "flat-topped violaceous polygonal papules with Wickham striae"}),
]

MULTI = [
    ChoiceSet("mammo_multi", "mammography", "Which findings are present? (select all that apply)",
              {"A": "Mass", "B": "Calcification", "C": "Architectural distortion",
               "D": "Asymmetry", "E": "Skin thickening"},
              {"A": "a spiculated mass in the upper outer quadrant",
               "B": "clustered pleomorphic calcifications",
               "C": "distortion of the surrounding parenchyma",
               "D": "a focal asymmetry",
               "E": "diffuse thickening of the skin"}),
    ChoiceSet("oct_multi", "fundus_oct", "Which features are visible on this OCT? (select all)",
              {"A": "Subretinal fluid", "B": "Intraretinal fluid", "C": "Drusen",
               "D": "Epiretinal membrane"},
              {"A": "a dark space beneath the neurosensory retina",
               "B": "hyporeflective cysts within the retina",
               "C": "small RPE elevations",
               "D": "a hyperreflective line on the inner retinal surface"}),
]

YESNO = [
    YesNo("ptx", "radiology", "Is there a pneumothorax?", "pneumothorax",
          "a visceral pleural line at the right apex with no markings beyond it",
          "lung markings extend to the chest wall on both sides"),
    YesNo("free_air", "radiology", "Is there free air under the diaphragm?",
          "free air under the diaphragm", "a lucent crescent under the right hemidiaphragm",
          "no lucency under either hemidiaphragm"),
    YesNo("fracture", "radiology", "Is there a fracture of the distal radius?",
          "fracture of the distal radius", "a lucent line through the distal radial metaphysis",
          "the cortex of the distal radius is intact"),
    YesNo("effusion", "radiology", "Is there a pleural effusion?", "pleural effusion",
          "blunting of the left costophrenic angle", "both costophrenic angles are sharp"),
    YesNo("calcs", "mammography", "Are there suspicious calcifications?",
          "suspicious calcifications", "fine pleomorphic calcifications in a cluster",
          "only scattered benign vascular calcifications"),
    YesNo("spiculated", "mammography", "Is there a spiculated mass?", "spiculated mass",
          "a mass with spicules radiating into the surrounding tissue",
          "the only mass is oval and circumscribed"),
    YesNo("dme", "fundus_oct", "Is there macular oedema?", "macular oedema",
          "intraretinal cysts with central thickening", "a normal foveal contour"),
    YesNo("drusen", "fundus_oct", "Are drusen present?", "drusen",
          "multiple yellow deposits at the macula", "a clean macula"),
    YesNo("rd", "fundus_oct", "Is there a retinal detachment?", "retinal detachment",
          "an elevated corrugated retina with a horseshoe tear",
          "the retina is flat in all quadrants"),
    YesNo("necrosis", "pathology", "Is there tumour necrosis?", "tumour necrosis",
          "large areas of eosinophilic debris with nuclear dust",
          "viable tumour cells throughout"),
    YesNo("mitoses", "pathology", "Are mitotic figures present?", "mitotic figures",
          "several atypical mitoses per high-power field", "no mitoses in the fields examined"),
    YesNo("lvi", "pathology", "Is there lymphovascular invasion?", "lymphovascular invasion",
          "tumour emboli within endothelium-lined spaces",
          "the vessels are free of tumour cells"),
    YesNo("ulcer", "dermatology", "Is the lesion ulcerated?", "ulceration",
          "a central crusted erosion with loss of epidermis", "an intact epidermal surface"),
    YesNo("veil", "dermatology", "Is there a blue-white veil?", "blue-white veil",
          "a structureless blue-white area over the raised part", "a regular brown network"),
]
