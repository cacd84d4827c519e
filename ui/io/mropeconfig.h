#pragma once
// The multimodal-position parts of a Qwen2-VL, Qwen2.5-VL or Qwen3-VL config.json
// (spec/conventions.md "Added in 0.4"): the M-RoPE sections (v5 `rope_parameters.mrope_section`,
// v4 `rope_scaling: {"type": "mrope", "mrope_section": …}`, in the file or its `text_config`),
// their layout (Qwen3-VL always interleaves: `mrope_interleaved` is not read by its code), the
// position-id rule of the model_type, `vision_config.spatial_merge_size` (class default 2) and,
// for Qwen2.5-VL, `vision_config.tokens_per_second` (class default 4; the hub's files say 2).
// θ and head_dim are the text model's, read as for any RoPE config (ui/io/modelconfig.h).
#include "ui/io/modelconfig.h"

#include <QJsonObject>
#include <QString>

namespace poslab::ui {

// Whether a model_type is one of the Qwen-VL families ("qwen2_vl", "qwen2_5_vl", "qwen3_vl",
// with or without "_text" / "_moe").
bool isQwenVlModelType(const QString& modelType);

// Sets out.mrope for a Qwen-VL config and records its keys in out.report (vision_config becomes
// used). `top`: the file's object; `read`: the object the text model was read from.
// Returns "" or what is wrong ("rope_scaling.mrope_section must be …, got …").
QString readMropeConfig(const QJsonObject& top, const QJsonObject& read, ModelFileConfig& out);

}  // namespace poslab::ui
