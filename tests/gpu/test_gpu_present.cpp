#include "gpu/gpu_test_util.hpp"

TEST(Gpu, DeviceAnswers) {
  TCGEMM_REQUIRE_GPU(80);
  int dev = -1;
  ASSERT_EQ(cudaGetDevice(&dev), cudaSuccess);
  EXPECT_GE(dev, 0);
}
