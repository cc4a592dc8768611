<?php
defined( 'ABSPATH' ) || exit;

/** The customer is told their subscription is paused and until when. */
final class RPS_Email_Subscription_Paused extends RPS_Email_Subscription {

	public function __construct() {
		$this->id          = 'rps_subscription_paused';
		$this->title       = __( 'Subscription paused', 'recurring-payments-bridge' );
		$this->description = __( 'Sent to the customer when their subscription is paused, with the date it resumes.', 'recurring-payments-bridge' );
		parent::__construct();
	}

	/** @return list<string> */
	protected function message_lines(): array {
		$until = self::date( $this->event['resume_at'] ?? ( $this->subscription['resume_at'] ?? null ) );
		return array(
			'' !== $until
				/* translators: 1: the subscription's name, 2: a date */
				? sprintf( __( 'Your subscription %1$s is paused until %2$s; no payment is taken until then.', 'recurring-payments-bridge' ), $this->name(), $until )
				/* translators: %s: the subscription's name */
				: sprintf( __( 'Your subscription %s is paused until you resume it; no payment is taken until then.', 'recurring-payments-bridge' ), $this->name() ),
		);
	}

	public function get_default_subject(): string {
		return __( 'Your subscription {subscription_name} is paused', 'recurring-payments-bridge' );
	}

	public function get_default_heading(): string {
		return __( 'Subscription paused', 'recurring-payments-bridge' );
	}
}
