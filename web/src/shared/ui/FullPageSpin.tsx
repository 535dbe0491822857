import { Flex, Spin } from 'antd';

export function FullPageSpin() {
  return (
    <Flex justify="center" align="center" style={{ minHeight: '60vh' }}>
      <Spin size="large" />
    </Flex>
  );
}
