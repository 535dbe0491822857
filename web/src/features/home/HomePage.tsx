import { MobileOutlined, HistoryOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Card, Col, Descriptions, Flex, Row, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MISSING } from '@/shared/format/number';
import { displayName, roleLabel, useCurrentUser } from '@/shared/user';

/** "/": a welcome with the account's details and where to go next. */
export default function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  if (!user) return null;
  const links = [
    ...(user.readOnly
      ? []
      : [
          {
            to: '/edit',
            icon: <SettingOutlined />,
            label: t('home.preferences'),
            text: t('home.preferencesText'),
          },
        ]),
    {
      to: '/systemupdate',
      icon: <HistoryOutlined />,
      label: t('home.updates'),
      text: t('home.updatesText'),
    },
    {
      to: '/app/download',
      icon: <MobileOutlined />,
      label: t('home.app'),
      text: t('home.appText'),
    },
  ];
  return (
    <Flex vertical gap={16}>
      <Card>
        <Flex align="center" gap={20} wrap>
          <Avatar size={72} src={user.avatar || undefined} icon={<UserOutlined />} />
          <div>
            <Typography.Title level={2} style={{ margin: 0 }} data-testid="welcome-title">
              {t('home.welcome', { name: displayName(user) })}
            </Typography.Title>
            <Typography.Text type="secondary">
              {[user.company?.name, roleLabel(user, t)].filter(Boolean).join(' · ')}
            </Typography.Text>
          </div>
        </Flex>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card title={t('home.account')} style={{ height: '100%' }}>
            <Descriptions column={1} size="small" data-testid="account-info">
              <Descriptions.Item label={t('profile.nickname')}>
                {user.nickname || MISSING}
              </Descriptions.Item>
              <Descriptions.Item label={t('profile.email')}>
                {user.email || MISSING}
              </Descriptions.Item>
              <Descriptions.Item label={t('profile.mobile')}>
                {user.mobile || MISSING}
              </Descriptions.Item>
              <Descriptions.Item label={t('home.company')}>
                {user.company?.name || MISSING}
              </Descriptions.Item>
              <Descriptions.Item label={t('home.role')}>
                <span data-testid="role-name">{roleLabel(user, t)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('home.memberSince')}>
                {user.createAt ? dayjs(user.createAt).format('YYYY-MM-DD') : MISSING}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={t('home.next')} style={{ height: '100%' }}>
            <Flex vertical gap={12}>
              {links.map((l) => (
                <Link key={l.to} to={l.to} className="home-link">
                  <Flex gap={12} align="flex-start">
                    <span className="home-link-icon">{l.icon}</span>
                    <span>
                      <Typography.Text strong>{l.label}</Typography.Text>
                      <br />
                      <Typography.Text type="secondary">{l.text}</Typography.Text>
                    </span>
                  </Flex>
                </Link>
              ))}
            </Flex>
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}
