import { ZReject, type ZReviewOutcome } from '@kabuto/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { checkForm } from '@/shared/forms';
import { useLocale } from '@/shared/locale';
import { meQuery } from '@/shared/queries';
import { useSession } from '@/shared/session';
import { decide, type QueueKind } from './queue-api';

/** What the decision did, as the server answers it. */
export type Outcome = z.output<typeof ZReviewOutcome>['status'];

/**
 * Approve (after a confirmation) and reject (with a required reason of at most 500 characters, which the
 * user reads exactly as written). Nothing else: an operator never sets an amount or a balance. A refused
 * decision (decided meanwhile by someone else, the same operator twice, an unapproved bank account...) keeps
 * its dialog open with the server's message in it.
 */
export function ReviewActions({
  kind,
  id,
  secondApproval,
  firstApprover = null,
  approvalReason = false,
  onDecided,
}: {
  kind: QueueKind;
  id: number;
  /** the next approval is the second of two */
  secondApproval?: boolean;
  /** who gave the first approval (username): they are not offered the second */
  firstApprover?: string | null;
  /** an approval needs a reason (a deposit no bank transfer matched, ADR 0023) */
  approvalReason?: boolean;
  onDecided: (outcome: Outcome) => void;
}) {
  const { t } = useLocale();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [form] = Form.useForm<{ reason?: string }>();
  // Four-eyes: the operator who gave the first approval cannot give the second (the server refuses it too).
  const awaitingSecond = secondApproval === true && firstApprover !== null;
  const { token } = useSession();
  const me = useQuery({ ...meQuery(token), enabled: token !== null && awaitingSecond });
  const gaveFirst = awaitingSecond && me.data?.username === firstApprover;

  const mutation = useMutation({
    mutationFn: (decision: { approve: true; reason?: string } | { approve: false; reason: string }) =>
      decide(kind, id, decision),
    onSuccess: (outcome) => {
      setConfirming(false);
      setRejecting(false);
      form.resetFields();
      onDecided(outcome.status);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['queue', kind] }),
  });

  const submitReject = () => {
    const body = checkForm(
      form,
      ZReject,
      { reason: form.getFieldsValue().reason ?? '' },
      { reason: t('review.reasonLabel') },
    );
    if (body !== null) mutation.mutate({ approve: false, reason: body.reason });
  };

  const submitApprove = () => {
    if (!approvalReason) {
      mutation.mutate({ approve: true });
      return;
    }
    const body = checkForm(
      form,
      ZReject,
      { reason: form.getFieldsValue().reason ?? '' },
      { reason: t('reconciliation.approvalReason') },
    );
    if (body !== null) mutation.mutate({ approve: true, reason: body.reason });
  };

  const refusal = mutation.isError ? (
    <Alert role="alert" type="error" showIcon message={mutation.error.message} style={{ marginBottom: 16 }} />
  ) : null;

  return (
    <>
      {gaveFirst && (
        <Alert
          role="note"
          type="info"
          showIcon
          message={t('review.awaitingOtherApprover')}
          style={{ marginBottom: 16 }}
        />
      )}
      <Space>
        {!gaveFirst && (
          <Button
            type="primary"
            onClick={() => {
              setConfirming(true);
            }}
          >
            {t('review.approve')}
          </Button>
        )}
        <Button
          danger
          onClick={() => {
            setRejecting(true);
          }}
        >
          {t('review.reject')}
        </Button>
      </Space>
      <Modal
        open={confirming}
        title={secondApproval === true ? t('review.approveSecondConfirm') : t('review.approveConfirm')}
        okText={t('review.approve')}
        cancelText={t('common.cancel')}
        confirmLoading={mutation.isPending}
        onOk={submitApprove}
        onCancel={() => {
          setConfirming(false);
        }}
        destroyOnHidden
      >
        {refusal}
        {approvalReason && (
          <Form form={form} name={`approve-${kind}`} layout="vertical" requiredMark={false}>
            <Alert
              type="warning"
              showIcon
              message={t('reconciliation.noTransferWarning')}
              style={{ marginBottom: 16 }}
            />
            <Form.Item label={t('reconciliation.approvalReason')} name="reason">
              <Input.TextArea rows={3} maxLength={500} showCount />
            </Form.Item>
          </Form>
        )}
      </Modal>
      <Modal
        open={rejecting}
        title={t('review.rejectTitle')}
        okText={t('review.reject')}
        okButtonProps={{ danger: true }}
        cancelText={t('common.cancel')}
        confirmLoading={mutation.isPending}
        onOk={submitReject}
        onCancel={() => {
          setRejecting(false);
        }}
        destroyOnHidden
      >
        {refusal}
        <Form form={form} name={`reject-${kind}`} layout="vertical" requiredMark={false}>
          <Form.Item label={t('review.reasonLabel')} name="reason" extra={t('review.reasonHelp')}>
            <Input.TextArea rows={4} maxLength={500} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
