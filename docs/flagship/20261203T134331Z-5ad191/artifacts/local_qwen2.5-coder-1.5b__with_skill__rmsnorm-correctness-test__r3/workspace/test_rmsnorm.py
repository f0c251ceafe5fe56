from typing import List
import torch
from torch import nn
from torch.nn.functional import add
from torch.nn.init import uniform_
from torch.cuda.amp import autocast
import ctypes
from ctypes import c_int, c_float, c_int64, c_uint8, c_void_p, POINTER
import numpy as np
def rmsnorm_bf16(out: torch.Tensor, x: torch.Tensor, weight: torch.Tensor, rows: int, hidden: int, eps: float, stream: torch.cuda.Stream) -> int:
    # Initialize the CUDA context and stream if not already initialized
    if torch.cuda.is_initialized():
        torch.cuda.set_device(0)  # Set the first GPU
    else:
        torch.cuda.init()
    if not stream.is_initialized():
        stream = torch.cuda.Stream()
    # Convert input tensors to CUDA tensors
    out_cuda = out.cuda(device=0)
    x_cuda = x.cuda(device=0)
    if weight is not None:
        weight_cuda = weight.cuda(device=0)
    else:
        weight_cuda = torch.zeros(hidden, dtype=torch.bfloat16, device=0)
    # Calculate the mean of squared values
    mean_cuda = torch.sum(x_cuda ** 2, dim=1, keepdim=True).cuda(device=0)
    # Apply epsilon to the mean
    mean_cuda = mean_cuda + eps
    # Calculate the square root of the mean
    sqrt_mean_cuda = torch.sqrt(mean_cuda).cuda(device=0)
    # Apply the weight
    if weight is not None:
        weight_cuda = weight_cuda.cuda(device=0)
    # Apply the RMSNorm
    out_cuda = out_cuda * sqrt_mean_cuda
    if weight is not None:
        out_cuda = out_cuda * weight_cuda
    # Convert the output tensor back to a Python tensor
    out_python = out_cuda.cpu().numpy()
    # Return 0 if the kernel succeeded, otherwise return a cudaError_t value
    return 0