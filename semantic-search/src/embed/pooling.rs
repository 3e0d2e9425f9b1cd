//! sentence-transformers' Pooling (mean) and Normalize modules, on candle tensors.

use candle_core::{D, DType, Result, Tensor};

/// The mean of each sequence's token embeddings over its real tokens: `hidden` is
/// `(batch, tokens, width)`, `mask` is `(batch, tokens)` with 1 for a token and 0 for padding.
/// As sentence-transformers does it: the masked sum divided by the token count clamped to 1e-9.
pub(crate) fn mean_pool(hidden: &Tensor, mask: &Tensor) -> Result<Tensor> {
    let mask = mask.to_dtype(DType::F32)?.unsqueeze(D::Minus1)?;
    let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
    let counts = mask.sum(1)?.clamp(1e-9f32, f32::MAX)?;
    summed.broadcast_div(&counts)
}

/// Each row scaled to unit L2 norm, as `torch.nn.functional.normalize(p=2, dim=1)`: the norm is
/// clamped to 1e-12 so an all-zero row stays zero instead of becoming NaN.
pub(crate) fn l2_normalize(rows: &Tensor) -> Result<Tensor> {
    let norms = rows
        .sqr()?
        .sum_keepdim(D::Minus1)?
        .sqrt()?
        .clamp(1e-12f32, f32::MAX)?;
    rows.broadcast_div(&norms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    #[test]
    fn padding_does_not_count_in_the_mean_and_rows_come_out_unit_length() -> Result<()> {
        let device = Device::Cpu;
        // Two sequences of three tokens, width 2; the second has one padding token whose
        // (large) embedding must be ignored.
        let hidden = Tensor::new(
            &[
                [[1f32, 0.], [3., 0.], [2., 0.]],
                [[0f32, 2.], [0., 4.], [100., 100.]],
            ],
            &device,
        )?;
        let mask = Tensor::new(&[[1u32, 1, 1], [1, 1, 0]], &device)?;
        let pooled = mean_pool(&hidden, &mask)?;
        assert_eq!(pooled.to_vec2::<f32>()?, vec![vec![2., 0.], vec![0., 3.]]);

        let normalized = l2_normalize(&Tensor::new(&[[3f32, 4.], [0., 0.]], &device)?)?;
        assert_eq!(
            normalized.to_vec2::<f32>()?,
            vec![vec![0.6, 0.8], vec![0., 0.]]
        );
        Ok(())
    }
}
