"""One entry of a recipe's ``sources:`` list: which reader, which files, which columns."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

BoxFormat = Literal["xywh", "xyxy", "center_radius"]


class SourceSpec(BaseModel):
    """How to read one dataset.

    Every ``*_column`` field names a column of the label table; ``reader`` names a registered
    reader (see ``medvqa.sources.SOURCE_READERS``).
    """

    model_config = ConfigDict(extra="forbid")

    dataset: str = Field(description="Dataset name, written to items' source and benchmark.json.")
    reader: str = Field(
        description="Registered reader: image_folder, table, npz, dicom, dicom_series, nifti."
    )
    path: str = Field(description="Image folder or file, relative to the data root.")
    license: str = Field(default="", description="Licence of the original data.")
    url: str = Field(default="", description="Where the original data is published.")
    labels: list[str] = Field(
        default_factory=list, description="Label tables (CSV, TSV, JSON, whitespace text)."
    )
    delimiter: str = Field(
        default=",", description='Column separator of text tables; "whitespace" splits on runs.'
    )
    image_column: str = Field(default="", description="Column with the image file name.")
    image_suffix: str = Field(default="", description="Appended to image names without one.")
    case_column: str = Field(default="", description="Column with the patient / case id.")
    case_prefix: str = Field(default="", description="Prefix for case ids (keeps sets apart).")
    age_column: str = Field(default="", description="Column with the age in years.")
    sex_column: str = Field(default="", description="Column with the sex.")
    box_format: BoxFormat | None = Field(default=None, description="How box columns are read.")
    box_columns: list[str] = Field(
        default_factory=list,
        description="Box columns: x,y,w,h (xywh), x0,y0,x1,y1 (xyxy) or x,y,radius.",
    )
    box_origin: Literal["top_left", "bottom_left"] = Field(
        default="top_left", description="Origin of box y coordinates (mini-MIAS: bottom_left)."
    )
    mask_column: str = Field(default="", description="Column with a mask volume (NIfTI).")
    slice: str = Field(
        default="central",
        description='Volume slice: "central", "largest_mask" or an integer index.',
    )
    window: str = Field(
        default="", description='CT window: a preset (lung, soft_tissue, bone, brain) or "C,W".'
    )
    frames: Literal["first", "all", "volume"] = Field(
        default="first",
        description="Multi-frame DICOM: first frame, one record per frame, or a volume whose "
        "representative frame is chosen by ``slice``.",
    )
    array_prefix: str = Field(
        default="", description="npz: key prefix (train_ of train_images); empty = all splits."
    )
    modality: str = Field(default="", description="Imaging modality, copied to item meta.")
    split: Literal["train", "val", "test", "test_tiny", "external"] | None = Field(
        default=None, description="Fixed split for every item of this source (e.g. external)."
    )

    @field_validator("slice", mode="before")
    @classmethod
    def _slice_text(cls, value: object) -> object:
        """``slice: 3`` in YAML is an int; keep it as the text rule ``"3"``."""
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value
