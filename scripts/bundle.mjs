// Placeholder: the plugin bundles (plugin/dist) are built here once the plugin lands.
