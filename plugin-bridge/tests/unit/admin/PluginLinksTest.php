<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

final class PluginLinksTest extends StubTestCase {

	public function test_the_plugins_page_shows_a_settings_link_first_to_the_plugins_settings_page(): void {
		$links = RPS_Plugin_Links::action_links( array( 'deactivate' => '<a href="plugins.php?action=deactivate">Deactivate</a>' ) );
		$this->assertSame( array( 'settings', 'deactivate' ), array_keys( $links ) );
		$this->assertSame( '<a href="https://shop.example/wp-admin/admin.php?page=rps-recurring-payments">Settings</a>', $links['settings'] );
	}
}
